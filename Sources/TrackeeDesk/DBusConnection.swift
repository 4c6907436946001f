import Glibc
import CDBus

/// A private connection to one D-Bus bus, given by its address.
///
/// Every libdbus pointer lives in this type: the connection, the messages
/// it sends and receives, and their iterators. It is not `Sendable`: one
/// task owns it, and libdbus is never asked to lock for several threads.
public final class DBusConnection {
    private let connection: OpaquePointer
    /// This connection's unique name on the bus, such as `:1.7`.
    public let uniqueName: String

    /// Connects to `address` (such as `unix:path=/run/user/1000/bus`) and
    /// registers on the bus. A private connection, so that closing it
    /// touches no one else's.
    public init(address: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw Self.failure(&error, "could not connect to the D-Bus bus at \(address)")
        }
        // libdbus would otherwise call exit() when the bus goes away; the
        // daemon must outlive its bus.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0, let name = dbus_bus_get_unique_name(connection) else {
            let failure = Self.failure(&error, "could not register on the D-Bus bus at \(address)")
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw failure
        }
        self.connection = connection
        self.uniqueName = String(cString: name)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Asks the bus to route the signals that `rule` matches to this
    /// connection, such as `type='signal',interface='org.freedesktop.login1.Session'`.
    public func addMatch(_ rule: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 {
            throw Self.failure(&error, "the D-Bus bus refused the match rule \(rule)")
        }
    }

    /// Calls a method and waits for its reply's arguments.
    ///
    /// With `keepingDescriptors`, each Unix file descriptor in the reply
    /// (logind's `Inhibit`) is a `.fileDescriptor` the caller owns and must
    /// close; without it, none is opened here (libdbus closes the message's
    /// own copies with the message).
    public func call(destination: String, path: String, interface: String, member: String,
                     arguments: [DBusValue] = [], timeoutMilliseconds: Int32 = 5000,
                     keepingDescriptors: Bool = false) throws -> [DBusValue] {
        let what = "\(interface).\(member) on \(destination) \(path)"
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusFailure("could not build the D-Bus call \(what): a name or path is not valid.")
        }
        defer { dbus_message_unref(message) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            guard Self.append(argument, to: &iterator) else {
                throw DBusFailure("could not build the D-Bus call \(what): argument \(argument) cannot be sent.")
            }
        }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeoutMilliseconds, &error)
        else {
            throw Self.failure(&error, "the D-Bus call \(what) failed")
        }
        defer { dbus_message_unref(reply) }
        return Self.arguments(of: reply, keepingDescriptors: keepingDescriptors)
    }

    /// Reads one property through `org.freedesktop.DBus.Properties.Get`,
    /// without its variant.
    public func property(destination: String, path: String, interface: String, name: String) throws -> DBusValue {
        let reply = try call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(interface), .string(name)])
        guard reply.count == 1, case .variant(let value) = reply[0] else {
            throw DBusFailure(
                "the property \(interface).\(name) of \(destination) \(path) came back as "
                    + "\(reply.map(\.signature).joined()) instead of one variant.")
        }
        return value
    }

    /// The next signal this connection receives, waiting at most
    /// `timeoutMilliseconds` (forever when negative); nil when none came in
    /// time, or when `wake` (a descriptor another thread writes to, such as
    /// an eventfd) became readable. Method calls and stray replies
    /// addressed to this connection are dropped.
    ///
    /// The wait is one `poll` on the connection's socket and `wake`, so a
    /// connection with nothing to say costs no wake-ups at all.
    public func nextSignal(timeoutMilliseconds: Int, wake: Int32? = nil) throws -> DBusSignal? {
        let clock = PollClock.continuous
        return try nextSignal(until: timeoutMilliseconds < 0 ? nil : clock.now + .milliseconds(timeoutMilliseconds),
                              on: clock, wake: wake)
    }

    /// ``nextSignal(timeoutMilliseconds:wake:)`` waiting on `clock` until it
    /// reaches `deadline` (forever when nil).
    public func nextSignal(until deadline: Duration?, on clock: any DeskClock, wake: Int32? = nil) throws -> DBusSignal? {
        var socket: Int32 = -1
        guard dbus_connection_get_unix_fd(connection, &socket) != 0 else {
            throw DBusFailure("the D-Bus connection \(uniqueName) has no socket.")
        }
        while true {
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL {
                    return DBusSignal(
                        sender: Self.text(dbus_message_get_sender(message)),
                        path: Self.text(dbus_message_get_path(message)),
                        interface: Self.text(dbus_message_get_interface(message)),
                        member: Self.text(dbus_message_get_member(message)),
                        arguments: Self.arguments(of: message, keepingDescriptors: false))
                }
            }
            if let deadline, clock.now >= deadline { return nil }
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
            let ready = clock.poll(&descriptors, until: deadline)
            if ready < 0 && errno != EINTR {
                throw DBusFailure("waiting on the D-Bus connection \(uniqueName) failed: \(String(cString: strerror(errno))).")
            }
            if descriptors.count > 1 && descriptors[1].revents != 0 { return nil }
            // Reads what arrived (or notices the bus hung up) without waiting.
            if descriptors[0].revents != 0 && dbus_connection_read_write(connection, 0) == 0 {
                throw DBusFailure("the D-Bus bus closed the connection \(uniqueName).")
            }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0 && dbus_connection_get_is_connected(connection) == 0 {
                throw DBusFailure("the D-Bus bus closed the connection \(uniqueName).")
            }
        }
    }

    // MARK: - Messages and their arguments

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// A failure from a set `DBusError`, which it frees.
    private static func failure(_ error: inout DBusError, _ sentence: String) -> DBusFailure {
        defer { dbus_error_free(&error) }
        guard dbus_error_is_set(&error) != 0 else { return DBusFailure(sentence + ".") }
        let name = text(error.name)
        let message = text(error.message)
        return DBusFailure(errorName: name, "\(sentence): \(message) (\(name)).")
    }

    private static func arguments(of message: OpaquePointer, keepingDescriptors: Bool) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return values(&iterator, keepingDescriptors)
    }

    /// The values from `iterator` to the end of its container.
    private static func values(_ iterator: inout DBusMessageIter, _ keepingDescriptors: Bool) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != 0 {  // DBUS_TYPE_INVALID, a cast macro Swift does not import
            values.append(value(&iterator, keepingDescriptors))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ empty: T) -> T {
        var value = empty
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func value(_ iterator: inout DBusMessageIter, _ keepingDescriptors: Bool) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "s"): return .string(text(basic(&iterator, UnsafePointer<CChar>?.none)))
        case UInt8(ascii: "o"): return .objectPath(text(basic(&iterator, UnsafePointer<CChar>?.none)))
        case UInt8(ascii: "g"): return .signature(text(basic(&iterator, UnsafePointer<CChar>?.none)))
        case UInt8(ascii: "b"): return .bool(basic(&iterator, dbus_bool_t(0)) != 0)
        case UInt8(ascii: "y"): return .byte(basic(&iterator, UInt8(0)))
        case UInt8(ascii: "n"): return .int16(basic(&iterator, Int16(0)))
        case UInt8(ascii: "q"): return .uint16(basic(&iterator, UInt16(0)))
        case UInt8(ascii: "i"): return .int32(basic(&iterator, Int32(0)))
        case UInt8(ascii: "u"): return .uint32(basic(&iterator, UInt32(0)))
        case UInt8(ascii: "x"): return .int64(basic(&iterator, Int64(0)))
        case UInt8(ascii: "t"): return .uint64(basic(&iterator, UInt64(0)))
        case UInt8(ascii: "d"): return .double(basic(&iterator, Double(0)))
        case UInt8(ascii: "h") where keepingDescriptors:
            // libdbus hands out a duplicate the caller owns; -1 when it
            // could not make one.
            let fd = basic(&iterator, Int32(-1))
            return fd >= 0 ? .fileDescriptor(fd) : .unsupported("h")
        case UInt8(ascii: "v"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(value(&inner, keepingDescriptors))
        case UInt8(ascii: "a"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var element = ""
            if let signature = dbus_message_iter_get_signature(&iterator) {
                element = String(String(cString: signature).dropFirst())
                dbus_free(signature)
            }
            return .array(elementSignature: element, values(&inner, keepingDescriptors))
        case UInt8(ascii: "r"), UInt8(ascii: "("):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(values(&inner, keepingDescriptors))
        case UInt8(ascii: "e"), UInt8(ascii: "{"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let pair = values(&inner, keepingDescriptors)
            guard pair.count == 2 else { return .structure(pair) }
            return .entry(key: pair[0], value: pair[1])
        default:
            return .unsupported(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: type))))
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ type: Character, _ value: T) -> Bool {
        var value = value
        return dbus_message_iter_append_basic(&iterator, Int32(type.asciiValue!), &value) != 0
    }

    private static func appendText(_ iterator: inout DBusMessageIter, _ type: Character, _ text: String) -> Bool {
        text.withCString { appendBasic(&iterator, type, $0) }
    }

    /// Appends `value` at `iterator`; false when libdbus refuses it (an
    /// invalid path or signature, a string that is not UTF-8, no memory).
    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .string(let text): return appendText(&iterator, "s", text)
        case .objectPath(let path): return appendText(&iterator, "o", path)
        case .signature(let signature): return appendText(&iterator, "g", signature)
        case .bool(let flag): return appendBasic(&iterator, "b", dbus_bool_t(flag ? 1 : 0))
        case .byte(let number): return appendBasic(&iterator, "y", number)
        case .int16(let number): return appendBasic(&iterator, "n", number)
        case .uint16(let number): return appendBasic(&iterator, "q", number)
        case .int32(let number): return appendBasic(&iterator, "i", number)
        case .uint32(let number): return appendBasic(&iterator, "u", number)
        case .int64(let number): return appendBasic(&iterator, "x", number)
        case .uint64(let number): return appendBasic(&iterator, "t", number)
        case .double(let number): return appendBasic(&iterator, "d", number)
        // libdbus sends a duplicate; the caller keeps its own.
        case .fileDescriptor(let fd): return appendBasic(&iterator, "h", fd)
        case .variant(let inner):
            return appendContainer(&iterator, "v", inner.signature, [inner])
        case .array(let element, let items):
            guard items.allSatisfy({ $0.signature == element }) else { return false }
            return appendContainer(&iterator, "a", element, items)
        case .structure(let fields): return appendContainer(&iterator, "r", nil, fields)
        case .entry(let key, let value): return appendContainer(&iterator, "e", nil, [key, value])
        case .unsupported: return false
        }
    }

    private static func appendContainer(_ iterator: inout DBusMessageIter, _ type: Character, _ signature: String?,
                                        _ items: [DBusValue]) -> Bool {
        var inner = DBusMessageIter()
        let opened: Bool =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&iterator, Int32(type.asciiValue!), $0, &inner) != 0 }
            } else {
                dbus_message_iter_open_container(&iterator, Int32(type.asciiValue!), nil, &inner) != 0
            }
        guard opened else { return false }
        for item in items where !append(item, to: &inner) {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
