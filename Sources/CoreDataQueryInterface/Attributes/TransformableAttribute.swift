/// The proxy of a Transformable attribute: a value the store keeps as transformed data.
///
/// A store cannot look inside a transformed value, so queries can only test it for `nil` and compare
/// it with another value as a whole (the operators for that come with the query API). The proxy is
/// not generic because a model's `customClassName` (`"[String]"`, `"UIColor"`, …) is not always a
/// type the generated code can name.
///
/// Its members come from ``AttributeProxy``.
public final class TransformableAttribute: AttributeProxy {}
