import Instrumentation

/// The header fields an instrument injects, in order, applied to the request afterwards.
struct HeaderCarrier {
    var fields: [(String, String)] = []

    /// Writes each injected value as a field (a repeated key replaces its earlier value).
    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout HeaderCarrier) {
            carrier.fields.removeAll { $0.0.lowercased() == key.lowercased() }
            carrier.fields.append((key, value))
        }
    }
}
