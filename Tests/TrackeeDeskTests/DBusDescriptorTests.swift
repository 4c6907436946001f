import Testing
import TrackeeDesk

extension DeskBusSuites {
    /// Unix file descriptors in a reply, through logind's mock `Inhibit`,
    /// whose inhibitor lasts while a copy of its descriptor is open.
    @Suite(.serialized)
    struct DBusDescriptorTests {
        func inhibit(_ mocks: SystemMocks, keeping: Bool) throws -> [DBusValue] {
            try mocks.control.call(
                destination: SystemMocks.login, path: SystemMocks.manager, interface: SystemMocks.managerInterface,
                member: "Inhibit", arguments: [.string("sleep"), .string("test"), .string("why"), .string("delay")],
                keepingDescriptors: keeping)
        }

        @Test func aKeptDescriptorHoldsUntilClosed() async throws {
            let mocks = try SystemMocks(upower: false)
            defer { mocks.stop() }
            let reply = try inhibit(mocks, keeping: true)
            guard reply.count == 1, case .fileDescriptor(let fd) = reply[0] else {
                Issue.record("Inhibit answered \(reply)")
                return
            }
            #expect(fd >= 0)
            #expect(try mocks.inhibitors().count == 1)
            SleepInhibitor(fd: fd).release()
            #expect(await until { (try? mocks.inhibitors()) == [] })
        }

        @Test func withoutKeepingNoDescriptorIsOpenedHere() async throws {
            let mocks = try SystemMocks(upower: false)
            defer { mocks.stop() }
            #expect(try inhibit(mocks, keeping: false) == [.unsupported("h")])
            // Only the message held a copy, and it is gone: the inhibitor ends by itself.
            #expect(await until { (try? mocks.inhibitors()) == [] })
        }
    }
}
