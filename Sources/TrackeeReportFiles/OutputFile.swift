import Foundation

/// Where a report file is made: beside its destination under a hidden
/// name, renamed over the destination only once complete, so a reader of
/// PATH sees the old file or the whole new one and a failure leaves
/// nothing behind. `-` is stdout (the file is made in the temporary
/// directory, copied out and removed).
enum OutputFile {
    /// Calls `render` with the path to draw into, then puts the file in place.
    static func write(to destination: String, suffix: String, render: (String) throws(ToolError) -> Void)
        throws(ToolError)
    {
        let toStdout = destination == "-"
        let directory = toStdout ? NSTemporaryDirectory() : (destination as NSString).deletingLastPathComponent
        let name = toStdout ? "trackee-report" : (destination as NSString).lastPathComponent
        var isDirectory: ObjCBool = false
        if !toStdout, FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ToolError("cannot write \(destination): it is a directory", status: ReportFileTool.cannotCreate)
        }
        // mkstemps keeps the suffix, so the libraries see the extension.
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + name + ".XXXXXX" + suffix).utf8CString)
        let fd = mkstemps(&template, Int32(suffix.utf8.count))
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if toStdout {
                throw ToolError("cannot make a temporary file in \(directory): \(reason)", status: ReportFileTool.cannotCreate)
            }
            throw ToolError("cannot write \(destination): \(reason)", status: ReportFileTool.cannotCreate)
        }
        close(fd)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(temporary) }
        try render(temporary)
        if toStdout {
            guard let data = FileManager.default.contents(atPath: temporary) else {
                throw ToolError("cannot read back \(temporary)", status: ReportFileTool.ioError)
            }
            do { try FileHandle.standardOutput.write(contentsOf: data) } catch {
                throw ToolError("cannot write to stdout: \(error.localizedDescription)", status: ReportFileTool.ioError)
            }
            return
        }
        // mkstemps made it 0600; a report is an ordinary file (0666 less the umask).
        let mask = umask(0)
        umask(mask)
        chmod(temporary, 0o666 & ~mask)
        guard rename(temporary, destination) == 0 else {
            throw ToolError("cannot write \(destination): \(String(cString: strerror(errno)))", status: ReportFileTool.cannotCreate)
        }
    }
}
