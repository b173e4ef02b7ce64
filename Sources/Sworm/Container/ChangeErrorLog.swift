/// The errors of the calls that cannot throw (upstream's `encode`, to-one setters, `add`, `remove`,
/// `delete`), kept by one ``ManagedObjectContext``: ``PersistentContainer/perform(action:)`` throws the
/// first one instead of saving.
final class ChangeErrorLog {
    private(set) var errors: [any Error] = []

    func record(_ error: any Error) { errors.append(error) }

    /// Runs `body`, recording what it throws.
    func recording(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            record(error)
        }
    }
}
