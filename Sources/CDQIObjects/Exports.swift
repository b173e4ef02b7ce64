// The object graph speaks fetch requests, sort descriptors and expression descriptions (`CDQISQL`):
// `import CDQIObjects` gives them, as `import CDQIStore` does.
@_exported import CDQISQL
