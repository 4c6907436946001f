import Foundation
import Testing
import TrackeeTestSupport
import TrackeeCore

@Suite struct ExportFileTests {
    @Test func aFinishedExportIsTheFileAndNothingBesideIt() throws {
        let folder = try TemporaryDirectory("trackee-export-")
        let path = folder.path + "/out.csv"
        let file = try ExportFile(path: path)
        try file.write("a,b\n")
        try file.write("é,\"x\"\n")
        #expect(folder.names == ["out.csv.tmp-\(getpid())"])
        #expect(!FileManager.default.fileExists(atPath: path))
        try file.finish()
        #expect(folder.names == ["out.csv"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\né,\"x\"\n")
    }

    @Test func anAbandonedExportLeavesTheOldFileAsItWas() throws {
        let folder = try TemporaryDirectory("trackee-export-")
        let path = folder.path + "/out.csv"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try ExportFile(path: path)
        try file.write("half a")
        file.abandon()
        #expect(folder.names == ["out.csv"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }

    @Test func aFileThatCannotBeWrittenIsOneSentence() throws {
        let folder = try TemporaryDirectory("trackee-export-")
        let missing = #expect(throws: Refusal.self) { try ExportFile(path: folder.path + "/no/out.csv") }
        #expect(missing?.message == "cannot write \(folder.path)/no/out.csv: No such file or directory")
        // A folder in the way: the rename fails, and the temporary file goes.
        try FileManager.default.createDirectory(atPath: folder.path + "/taken", withIntermediateDirectories: false)
        try "x".write(toFile: folder.path + "/taken/inside", atomically: false, encoding: .utf8)
        let file = try ExportFile(path: folder.path + "/taken")
        try file.write("a\n")
        let taken = #expect(throws: Refusal.self) { try file.finish() }
        #expect(taken?.message == "cannot write \(folder.path)/taken: Is a directory")
        #expect(folder.names == ["taken"])
    }

    /// Nil and `-` are standard output, which finishing or abandoning
    /// leaves open.
    @Test func standardOutputIsLeftOpen() throws {
        for path in [nil, "-"] as [String?] {
            let file = try ExportFile(path: path)
            try file.write("")
            try file.finish()
            file.abandon()
            #expect(fcntl(1, F_GETFD) != -1)
        }
    }
}
