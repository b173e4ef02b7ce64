// The object graph, the SQL compiler and the SQLite store are their own targets; `import CDQIStore` keeps
// giving their public API (contexts, managed objects, fetch requests, sort descriptors, expression
// descriptions, the SQLite store and its errors) as it did when they were part of this module.
@_exported import CDQIObjects
@_exported import CDQISQL
@_exported import CDQISQLite
