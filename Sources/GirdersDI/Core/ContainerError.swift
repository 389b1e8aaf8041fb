/// Every error GirdersDI reports. Type names are fully qualified (`MyApp.SomeService`).
public enum ContainerError: Error, CustomStringConvertible {
    /// Nothing is registered for the type and name; `registered` lists what is.
    case notRegistered(type: String, name: String?, registered: [String])
    /// Factories that need each other: `chain` is `["A", "B", "A"]`.
    case cycle(chain: [String])
    /// A factory threw; `chain` is the path of types that led to it, ending with the failing type.
    case factoryFailed(chain: [String], underlying: any Error)
    /// A chain of factories, each resolving the next, longer than ``Container/maximumDepth``; `start` is the type
    /// the chain began with.
    case tooDeep(start: String, limit: Int)
    /// A `.weak` registration produced a value type, which cannot be held weakly.
    case weakRequiresClass(type: String)
    /// A synchronous resolve reached a registration whose factory is `async`: resolve it with `try await`.
    case asyncFactory(type: String)

    /// A sentence naming the types involved.
    public var description: String {
        switch self {
        case .notRegistered(let type, let name, let registered):
            let requested = name.map { "\(type) named \"\($0)\"" } ?? type
            let known =
                registered.isEmpty ? "nothing is registered" : "registered: " + registered.joined(separator: ", ")
            return "No registration for \(requested) (\(known))"
        case .cycle(let chain):
            return "Dependency cycle: \(chain.joined(separator: " -> "))"
        case .factoryFailed(let chain, let underlying):
            return
                "The factory of \(chain.last ?? "?") failed (resolving \(chain.joined(separator: " -> "))): \(underlying)"
        case .tooDeep(let start, let limit):
            return "Resolving \(start) needs a chain of more than \(limit) factories, each resolving the next"
        case .weakRequiresClass(let type):
            return "\(type) is registered as .weak, but its factory returned a value type"
        case .asyncFactory(let type):
            return
                "\(type) has an async factory: resolve it with `try await container.resolve()`, not synchronously"
        }
    }
}
