/// A reference to an ``EntityLayout`` that objects and object IDs hold instead of the layout itself.
///
/// Every object and object ID names its entity, and a reference held is a reference counted: on the
/// layout, that was one counter for every object of the entity in every context on every thread. Four
/// threads fetching at once passed its cache line between cores for every row made and freed (on this
/// project's two-core machine an atomic increment contended by two cores costs about 29 ns, against 7
/// uncontended). A context makes one handle per entity (``ManagedObjectContext/handle(for:)``) and its
/// objects and the IDs it makes count on that one, which only its own thread touches; an ID passed to
/// another context keeps its handle, which keeps the layout.
///
/// The handle also holds the to-many slots of its context's objects of the entity whose relationships
/// are not loaded yet (every element `nil`), shared by them until each loads one: one array per entity
/// and context, counted by that context's thread only, where one array per layout was counted by all.
@usableFromInline final class EntityHandle: Sendable {
    /// The layout.
    @usableFromInline let layout: EntityLayout
    /// `layout.toManyCount` slots, all `nil`. Never changed in place (objects copy it on their first
    /// change), so sharing it is safe.
    nonisolated(unsafe) let unloadedToMany: [ToManyStorage?]

    init(_ layout: EntityLayout) {
        self.layout = layout
        unloadedToMany = Array(repeating: nil, count: layout.toManyCount)
    }
}
