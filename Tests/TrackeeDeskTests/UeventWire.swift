import Foundation
import Glibc
import Synchronization
import TrackeeDesk

/// Uevent datagrams in the kernel's own layout, `ACTION@DEVPATH` and then
/// `ACTION`, `DEVPATH`, `SUBSYSTEM`, the device's variables and `SEQNUM`,
/// each ended by a NUL, as `udevadm monitor --kernel --property` lists them.
enum UeventWire {
    static func datagram(_ action: String, _ devpath: String, subsystem: String, _ variables: [(String, String)],
                         sequence: Int) -> [UInt8] {
        let fields = ["\(action)@\(devpath)", "ACTION=\(action)", "DEVPATH=\(devpath)", "SUBSYSTEM=\(subsystem)"]
            + variables.map { "\($0.0)=\($0.1)" } + ["SEQNUM=\(sequence)"]
        return fields.flatMap { Array($0.utf8) + [0] }
    }
}

/// A socket pair standing in for the kernel's netlink socket: the monitor
/// reads one end, the test sends datagrams on the other.
final class UeventPair {
    let kernelSide: Int32
    /// Handed to the monitor, which closes it.
    let monitorSide: Int32

    init() throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        kernelSide = pair[0]
        monitorSide = pair[1]
    }

    deinit { close(kernelSide) }

    /// Sends one datagram; the errno when the system refuses it.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int32? {
        let sent = bytes.withUnsafeBytes { Glibc.send(kernelSide, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count ? nil : errno
    }
}

/// The changes a monitor yielded, in order, for the test thread to wait on.
final class YieldedChanges: Sendable {
    private let changes = Mutex<[DeskChange]>([])

    func append(_ change: DeskChange) { changes.withLock { $0.append(change) } }

    var all: [DeskChange] { changes.withLock { $0 } }

    /// Waits until `count` changes have come, or five seconds; returns
    /// what came.
    func wait(for count: Int) -> [DeskChange] {
        for _ in 0..<1000 {
            let got = all
            if got.count >= count { return got }
            usleep(5000)
        }
        return all
    }
}

/// A sysfs tree in a temporary directory, removed by `remove()`.
struct FakeSysfs {
    let root: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/trackee-sysfs-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        root = String(cString: made)
    }

    /// Writes the attributes of the device at `devpath`, each with the
    /// final newline the kernel gives them.
    func device(_ devpath: String, _ attributes: [String: String]) throws {
        try FileManager.default.createDirectory(atPath: root + devpath, withIntermediateDirectories: true)
        for (name, value) in attributes {
            try (value + "\n").write(toFile: root + devpath + "/" + name, atomically: false, encoding: .utf8)
        }
    }

    /// What the kernel does when the device goes: its directory vanishes.
    func unplug(_ devpath: String) throws {
        try FileManager.default.removeItem(atPath: root + devpath)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// The sentence a monitor's thread ended with.
final class YieldedEnding: Sendable {
    private let held = Mutex<String?>(nil)

    func set(_ sentence: String) { held.withLock { $0 = sentence } }

    var sentence: String? { held.withLock { $0 } }

    /// Waits up to five seconds for it.
    func wait() -> String? {
        for _ in 0..<1000 {
            if let sentence { return sentence }
            usleep(5000)
        }
        return sentence
    }
}
