// The SQL compiler and the SQLite driver are their own targets; `import CDQIStore` keeps giving their
// public API (fetch requests, sort descriptors, expression descriptions, SQLite errors) as it did when they
// were part of this module.
@_exported import CDQISQL
@_exported import CDQISQLite
