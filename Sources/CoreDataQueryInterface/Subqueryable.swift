/// An entity proxy that can be the subject of a subquery (`SUBQUERY(employees, $e, …)`).
///
/// Generated entity proxies adopt it; the subquery functions come with the query API.
public protocol Subqueryable: EntityAttribute {}
