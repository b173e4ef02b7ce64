extension Array where Element == Int {
    /// In an ascending array, how many elements are below `value` (a binary search).
    func countBelow(_ value: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
