import Foundation
import TrackeeReportFiles

// `trackee report --format pdf|xlsx` runs this with the report's JSON on
// stdin; the logic is in TrackeeReportFiles.
exit(ReportFileTool.main(Array(CommandLine.arguments.dropFirst())) { FileHandle.standardInput.readDataToEndOfFile() })
