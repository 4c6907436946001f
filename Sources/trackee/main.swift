// The entry point only; commands live in their own files.
Trackee.runCommandLine()
