import Testing

/// Every suite that starts a private dbus-daemon and python mocks, in one
/// serialized group. Their tests block while processes start and answer,
/// so one at a time they hold at most one thread of the test pool, and the
/// rest of `make test` keeps the other (on two cores, letting them run side
/// by side starved every other suite for minutes).
@Suite(.serialized, .enabled(if: PrivateBus.unavailable == nil, "needs dbus-daemon and python3-dbusmock"))
enum DeskBusSuites {}
