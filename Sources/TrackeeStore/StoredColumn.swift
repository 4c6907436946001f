import GRDB

/// One column of a row the store keeps, written once: its name, the
/// values the hub lets it hold, and the property of `Value` that holds it.
/// A table's list of them is the one place its columns are written
/// (``JournalRecord/columns`` for clients, projects and entries,
/// ``HubLoggedIntent/columns`` for the intent log); what reads or writes
/// the row column by column is made from that list.
public struct StoredColumn<Value>: Sendable {
    public let name: String
    public let kind: HubValue.Kind
    /// The property's value.
    let read: @Sendable (Value) -> HubValue
    /// Sets the property; false where it cannot hold the value.
    let write: @Sendable (inout Value, HubValue) -> Bool
    /// Sets the property from the row's column of this name.
    let decode: @Sendable (inout Value, Row) -> Void

    init<Property: DatabaseValueConvertible & StatementColumnConvertible & Sendable>(
        _ name: String, _ kind: HubValue.Kind, _ path: WritableKeyPath<Value, Property> & Sendable
    ) {
        self.name = name
        self.kind = kind
        read = { HubValue($0[keyPath: path].databaseValue) }
        write = { value, new in
            guard let property = Property.fromDatabaseValue(new.databaseValue) else { return false }
            value[keyPath: path] = property
            return true
        }
        decode = { $0[keyPath: path] = $1[name] }
    }
}
