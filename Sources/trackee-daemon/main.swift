// The entry point only; see DaemonEntry.
DaemonEntry.main()
