import Glibc

// `trackee sync` runs this with the job; the logic is in SyncTool.
exit(SyncTool.main(CommandLine.arguments))
