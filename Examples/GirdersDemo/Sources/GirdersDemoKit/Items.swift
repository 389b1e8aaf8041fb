import Foundation
import GirdersDemoAPI
import GirdersNetworking
import GirdersOpenAPI
import GirdersWebSocket
import OpenAPIRuntime

struct Item: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

/// What the server says about an upload.
struct UploadReceipt: Codable, Sendable {
    let bytes: Int
    let sha256: String
}

/// The service's items. The commands see only this protocol; the container picks the live or the stub one.
protocol ItemRepository: Sendable {
    func list() async throws -> [Item]
    func create(named name: String) async throws -> Item
    func delete(id: Int) async throws
    func upload(_ file: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadReceipt
    /// The next `count` changes the server announces on its live feed.
    func changes(count: Int) async throws -> [ItemChange]
}

/// A change of the items, as the live feed (a WebSocket) announces it.
struct ItemChange: Decodable, Sendable, Equatable {
    let change: String
    let item: Item?
    let id: Int?
}

/// The server's error body, decoded from a rejected response by the typed requests.
struct ServerMessage: Error, Decodable, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The item endpoints, GirdersSwift style.
struct ItemsEndpoint: ServiceEndpoint {
    enum Action { case list, create(String), delete(Int) }
    let baseURL: URL
    let action: Action

    var path: String {
        if case .delete(let id) = action { return "/items/\(pathSegment(String(id)))" }
        return "/items"
    }
    var method: HTTPMethod {
        switch action {
        case .list: .get
        case .create: .post
        case .delete: .delete
        }
    }
    var parameters: Any? {
        if case .create(let name) = action { return ["name": name] }
        return nil
    }
}

/// A typed request for any endpoint: `client.send(Call<[Item]>(endpoint))` gives `[Item]`.
struct Call<Success: Decodable & Sendable, Endpoint: ServiceEndpoint & Sendable>: TypedRequest {
    typealias Failure = ServerMessage
    let endpoint: Endpoint
    var request: Request { Request(endpoint: endpoint) }
}

/// The same for an endpoint that answers without a body.
struct NoContentCall<Endpoint: ServiceEndpoint & Sendable>: NoContentRequest {
    typealias Failure = ServerMessage
    let endpoint: Endpoint
    var request: Request { Request(endpoint: endpoint) }
}

/// The items on the server, through the container's `HTTPClient` (token refresh, retries on 503, logging).
struct LiveItemRepository: ItemRepository {
    let client: HTTPClient
    let baseURL: URL

    /// Through the client swift-openapi-generator made from the server's OpenAPI document, sent by the same
    /// `HTTPClient` (so the token refresh, retries and logging apply).
    func list() async throws -> [Item] {
        let api = GirdersDemoAPI.Client(serverURL: baseURL, transport: GirdersClientTransport(client: client))
        let answer: Operations.listItems.Output
        do {
            answer = try await api.listItems()
        } catch let error as ClientError {
            throw error.underlyingError  // the ResponseError, as the other commands throw it
        }
        switch answer {
        case .ok(let ok): return try ok.body.json.map { Item(id: $0.id, name: $0.name) }
        case .unauthorized(let refused): throw ServerMessage(message: try refused.body.json.message)
        case .undocumented(let status, _): throw ServerMessage(message: "the server answered \(status)")
        }
    }

    func create(named name: String) async throws -> Item {
        try await client.send(
            Call<Item, ItemsEndpoint>(endpoint: ItemsEndpoint(baseURL: baseURL, action: .create(name))))
    }

    func delete(id: Int) async throws {
        try await client.send(NoContentCall(endpoint: ItemsEndpoint(baseURL: baseURL, action: .delete(id))))
    }

    func upload(_ file: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadReceipt {
        var form = MultipartFormData()
        form.append(fileAt: file, name: "file", contentType: "application/octet-stream")
        let request = Request(
            MutableRequest(method: .post, url: baseURL.appendingPathComponent("uploads")) |> withMultipartBody(form))
        let response = try await client.upload(request) { step in progress(step.fractionCompleted ?? 0) }
        return try JSONDecoder().decode(UploadReceipt.self, from: response.body)
    }

    /// Over a WebSocket whose handshake goes through the same client, so the token and its refresh apply.
    func changes(count: Int) async throws -> [ItemChange] {
        let socket = try await client.webSocket(Request(URL: baseURL.appendingPathComponent("feed"), method: .get))
        var changes: [ItemChange] = []
        for try await case .text(let text) in socket.messages {
            changes.append(try JSONDecoder().decode(ItemChange.self, from: Data(text.utf8)))
            if changes.count == count { break }
        }
        await socket.close()
        return changes
    }
}

/// Items in memory, for tests and offline runs: swapped in through a DI override.
actor StubItemRepository: ItemRepository {
    private var items: [Item]

    init(_ items: [Item] = []) {
        self.items = items
    }

    func list() async throws -> [Item] { items }

    func create(named name: String) async throws -> Item {
        let item = Item(id: (items.map(\.id).max() ?? 0) + 1, name: name)
        items.append(item)
        return item
    }

    func delete(id: Int) async throws { items.removeAll { $0.id == id } }

    func upload(_ file: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadReceipt {
        progress(1)
        return UploadReceipt(bytes: (try Data(contentsOf: file)).count, sha256: "stub")
    }

    func changes(count: Int) async throws -> [ItemChange] { [] }
}
