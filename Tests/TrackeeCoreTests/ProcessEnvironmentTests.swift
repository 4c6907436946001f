import Foundation
import Testing
import TrackeeCore

@Suite struct ProcessEnvironmentTests {
    @Test func namesAndValuesTheFirstOfTwoNamesWinning() {
        let texts = ["A=1", "B=x=y", "A=2", "NOEQ", "=empty", "C=", "É=ü"]
        var entries: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) } + [nil]
        defer { for entry in entries { free(entry) } }
        let read = entries.withUnsafeMutableBufferPointer { ProcessEnvironment.read($0.baseAddress!) }
        #expect(read == ["A": "1", "B": "x=y", "": "empty", "C": "", "É": "ü"])
    }

    @Test func anEmptyListIsNone() {
        var entries: [UnsafeMutablePointer<CChar>?] = [nil]
        #expect(entries.withUnsafeMutableBufferPointer { ProcessEnvironment.read($0.baseAddress!) } == [:])
    }

    @Test func thisProcessAsFoundationReadsIt() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
    }
}
