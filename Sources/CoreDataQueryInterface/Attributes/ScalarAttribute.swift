/// The proxy of an attribute whose values are of type `Value`: a string, a number, a date, data, …
///
/// Generated code uses it through the typealiases (``StringAttribute``, ``Integer32Attribute``, …).
/// `Value` is the Swift type the attribute's values have, there for the query operators to type-check
/// comparisons with (`$0.salary > "high"` should not compile).
///
/// Its members come from ``AttributeProxy``.
public final class ScalarAttribute<Value>: AttributeProxy {}
