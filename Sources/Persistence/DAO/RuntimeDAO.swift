import CDQIStore

/// A DAO with no methods of its own, for any entity: what ``DAOFactory/createDAO(_:)`` makes.
open class RuntimeDAO: DAO {}
