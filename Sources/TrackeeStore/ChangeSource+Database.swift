import GRDB
import TrackeeCore

/// A source crosses into SQL as the text every release has stored.
extension ChangeSource: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { storedText.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ChangeSource? {
        String.fromDatabaseValue(dbValue).flatMap(ChangeSource.init(storedText:))
    }
}
