import Glibc

// `trackee sync` runs this with the job; the logic is in PushTool.
exit(PushTool.main(CommandLine.arguments))
