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

    /// `get` and `set` are the property's: closures rather than a key
    /// path, whose projection at run time costs a journaled row more than
    /// its insert.
    @inline(__always)
    init<Property: HubValueConvertible & DatabaseValueConvertible & StatementColumnConvertible & Sendable>(
        _ name: String, _ kind: HubValue.Kind, _ get: @escaping @Sendable (Value) -> Property,
        _ set: @escaping @Sendable (inout Value, Property) -> Void
    ) {
        self.name = name
        self.kind = kind
        read = { get($0).hubValue }
        write = { value, new in
            guard let property = Property.fromDatabaseValue(new.databaseValue) else { return false }
            set(&value, property)
            return true
        }
        decode = { set(&$0, $1[name]) }
    }
}

/// A property's value as the hub holds it: the types a column's property
/// has. (GRDB's `databaseValue` would do, through a `DatabaseValue` and,
/// for an optional, an unspecialized conformance, on every value of every
/// row journaled.)
protocol HubValueConvertible {
    var hubValue: HubValue { get }
}

extension Int64: HubValueConvertible {
    var hubValue: HubValue { .integer(self) }
}

extension String: HubValueConvertible {
    var hubValue: HubValue { .text(self) }
}

extension Bool: HubValueConvertible {
    var hubValue: HubValue { .integer(self ? 1 : 0) }
}

extension Optional: HubValueConvertible where Wrapped: HubValueConvertible {
    var hubValue: HubValue { self?.hubValue ?? .null }
}

extension StatementArguments {
    /// A row's values by column, then `more`. GRDB's initializers from a
    /// sequence are generic, and unspecialized here they cost over a
    /// thousand instructions a value; its array literal is specialized, a
    /// fixed cost a statement. So the rows written most (an entry's nine
    /// columns; an intent log row's ten and one or two more) go in as a
    /// literal of their length, and any other length (a client's or a
    /// project's, rare) through the sequence.
    init(values: [HubValue], then more: (any DatabaseValueConvertible)?...) {
        func v(_ i: Int) -> (any DatabaseValueConvertible)? {
            i < values.count ? values[i].databaseValue : more[i - values.count]
        }
        switch values.count + more.count {
        case 9: self = [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8)]
        case 11: self = [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10)]
        case 12: self = [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10), v(11)]
        default: self.init((0..<values.count + more.count).map(v))
        }
    }
}
