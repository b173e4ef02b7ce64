import CDQIPredicate
import CoreDataQueryInterface

/// A typed query's column holding each result's primary key (`Z_PK`, the `p12` of its object ID's
/// URI): the evaluated object (Core Data's `SELF`), which the store selects as its key.
/// `select { (PrimaryKeyColumn(), $0.firstName) }` gives each row's key with its values, read in the
/// same statement, so from the same snapshot.
struct PrimaryKeyColumn: QuerySelectable {
    typealias CDQIValue = Int64

    var cdqiSelection: QuerySelection { QuerySelection(name: "primaryKey", expression: .evaluatedObject) }
}
