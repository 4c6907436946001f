// The entry point only; commands live in TrackeeCommands.
import TrackeeCommands

Trackee.runCommandLine()
