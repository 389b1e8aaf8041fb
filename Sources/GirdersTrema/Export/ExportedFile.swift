public import Foundation

/// A file an exporter produced: a path relative to the output folder and its bytes.
public struct ExportedFile: Sendable, Equatable {
    /// The path below the output folder, with `/` separators: `de.lproj/messages.strings`.
    public let path: String
    /// The complete contents.
    public let data: Data

    /// An exported file.
    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    /// The contents as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Writes every file below `folder`, creating folders as needed. Each file is written to a temporary file
    /// beside its destination and renamed into place, so it appears complete or not at all; nothing is written
    /// before every file has been produced, because exporters return complete files.
    public static func write(_ files: [ExportedFile], to folder: URL) throws(TremaError) {
        let manager = FileManager.default
        for file in files {
            let destination = folder.appendingPathComponent(file.path)
            do {
                try manager.createDirectory(
                    at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.data.write(to: destination, options: .atomic)
            } catch {
                throw .cannotWrite(path: destination.path, reason: error.localizedDescription)
            }
        }
    }
}
