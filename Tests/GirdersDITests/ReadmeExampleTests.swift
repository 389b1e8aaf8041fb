import Foundation
import GirdersDI
import Testing

protocol Database: AnyObject, Sendable {
    var name: String { get }
}

final class SQLiteDatabase: Database {
    let name: String
    init(path: String) throws { name = "sqlite at \(path)" }
}

final class InMemoryDatabase: Database {
    let name = "in memory"
}

final class UserService {
    let database: Database
    init(database: Database) { self.database = database }
}

/// The GirdersDI example from README.md, compiled and run as printed there.
struct DIReadmeExampleTests {
    @Test func theReadmeExampleRunsAndWiresWhatItPromises() throws {
        let dbPath = "/tmp/app.sqlite"
        var scenarioDatabase: String?
        let container = Container()
        func runScenario() throws {
            scenarioDatabase = (try container.resolveOrThrow(UserService.self, name: nil)).database.name
        }

        // --- README example begins ---
        container.register(Database.self, lifetime: .singleton) { _ in try SQLiteDatabase(path: dbPath) }
        container.register(UserService.self) { resolver in UserService(database: try resolver.resolveOrThrow()) }
        container.register(Parent.self, lifetime: .graph, factory: { _ in Parent() }) { resolver, parent in
            parent.child = try resolver.resolveOrThrow()  // property injection, cycles allowed within a graph
        }
        let users: UserService = try container.resolveOrThrow()

        try container.withOverrides({ $0.register(Database.self) { _ in InMemoryDatabase() } }) {
            try runScenario()  // sees InMemoryDatabase; other tests and threads do not
        }
        // --- README example ends ---

        #expect(users.database.name == "sqlite at /tmp/app.sqlite")
        #expect(scenarioDatabase == "in memory")
        #expect((try container.resolveOrThrow(UserService.self, name: nil)).database === users.database)
    }
}
