/// How proxies turn keys into key paths and dictionary-result names.
enum KeyPathNaming {
    /// The key path of `key` under a parent whose key path is `parentPath`: the two joined by a dot,
    /// leaving out whichever is empty.
    static func keyPath(key: String?, parentPath: String?) -> String {
        // Runs for every proxy a query closure touches: no intermediate arrays.
        guard let key, !key.isEmpty else { return parentPath ?? "" }
        guard let parentPath, !parentPath.isEmpty else { return key }
        return parentPath + "." + key
    }

    /// CDQI's dictionary-result name for a key path: the first component as it is, each following
    /// component with its first letter upper-cased (`"department.name"` → `"departmentName"`).
    static func name(forKeyPath keyPath: String) -> String {
        var result = ""
        for (position, component) in keyPath.split(separator: ".", omittingEmptySubsequences: true).enumerated() {
            if position == 0 {
                result += component
            } else if let first = component.first {
                result += first.uppercased() + component.dropFirst()
            }
        }
        return result
    }
}
