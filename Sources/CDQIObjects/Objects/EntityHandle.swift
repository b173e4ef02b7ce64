/// A reference to an ``EntityLayout`` that objects and object IDs hold instead of the layout itself.
///
/// Every object and object ID names its entity, and a reference held is a reference counted: on the
/// layout, that was one counter for every object of the entity in every context on every thread. Four
/// threads fetching at once passed its cache line between cores for every row made and freed (on this
/// project's two-core machine an atomic increment contended by two cores costs about 29 ns, against 7
/// uncontended). A context makes one handle per entity (``ManagedObjectContext/handle(for:)``) and its
/// objects and the IDs it makes count on that one, which only its own thread touches; an ID passed to
/// another context keeps its handle, which keeps the layout.
@usableFromInline final class EntityHandle: Sendable {
    /// The layout.
    @usableFromInline let layout: EntityLayout

    init(_ layout: EntityLayout) {
        self.layout = layout
    }
}
