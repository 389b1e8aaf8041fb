import GirdersDI
import GirdersTestLocks
import Testing

/// `let x: T? = resolveOrThrow()` takes a specialised fast path; it must mean exactly what the general path
/// (a generic caller resolving `Optional<T>`) means, in every arrangement of registrations.
struct OptionalResolveTests {
    /// Resolves through the unspecialised path: `Service` is only known to be some type, here an `Optional`.
    static func general<Service>(_ container: Container, name: String? = nil) throws -> Service {
        try container.resolveOrThrow(Service.self, name: name)
    }

    @Test func anExplicitOptionalRegistrationWinsOverTheWrappedType() throws {
        let container = Container()
        container.register(Int.self) { _ in 42 }
        let unwrapped: Int? = try container.resolveOrThrow()
        #expect(unwrapped == 42)
        container.register(Int?.self) { _ in 7 }
        let explicit: Int? = try container.resolveOrThrow()
        let explicitGeneral: Int? = try Self.general(container)
        #expect(explicit == 7)
        #expect(explicitGeneral == 7)
        container.register(Int?.self) { _ in nil }
        let explicitNil: Int? = container.resolve()
        #expect(explicitNil == nil)
        #expect(try container.resolveOrThrow(Int?.self, name: nil) == nil)
    }

    @Test func namesUnregisteredTypesAndFailingFactoriesMeanTheSameOnBothPaths() throws {
        let container = Container()
        container.register(String.self, name: "port") { _ in "8080" }
        container.register(Double.self) { _ in throw Failure(description: "no clock") }
        let named: String? = try container.resolveOrThrow(name: "port")
        let namedGeneral: String? = try Self.general(container, name: "port")
        #expect(named == "8080" && namedGeneral == "8080")
        let unnamed: String? = try container.resolveOrThrow()
        #expect(unnamed == nil)
        let missing: Float? = try container.resolveOrThrow()
        #expect(missing == nil)
        #expect(throws: ContainerError.self) { let _: Double? = try container.resolveOrThrow() }
        #expect(throws: ContainerError.self) { let _: Double? = try Self.general(container) }
    }

    @Test func aChildFindsTheParentsRegistrationsAndOverridesApply() throws {
        let parent = Container()
        parent.register(Int.self) { _ in 1 }
        let child = parent.makeChild()
        let inherited: Int? = try child.resolveOrThrow()
        #expect(inherited == 1)
        parent.register(Int?.self) { _ in 2 }
        child.register(Int.self) { _ in 3 }
        let fast: Int? = try child.resolveOrThrow()
        let general: Int? = try Self.general(child)
        #expect(fast == general)
        let overridden: Int?? = try parent.withOverrides({ $0.register(Int?.self) { _ in 9 } }) {
            try parent.resolveOrThrow() as Int?
        }
        #expect(overridden == 9)
        let outside: Int? = try parent.resolveOrThrow()
        #expect(outside == 2)
    }

    @Test func theStaticFormsResolveOptionalsOnTheSharedContainer() throws {
        try TestLock.sharedContainer.withLock {
            Container.shared.register(UInt8.self, name: "optional-static") { _ in 5 }
            defer { Container.shared.register(UInt8.self, name: "optional-static") { _ in 0 } }
            let found: UInt8? = Container.resolve(name: "optional-static")
            let thrown: UInt8? = try Container.resolveOrThrow(name: "optional-static")
            let absent: UInt8? = Container.resolve(name: "never-registered")
            #expect(found == 5 && thrown == 5 && absent == nil)
        }
    }
}
