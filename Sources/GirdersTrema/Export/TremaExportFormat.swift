import Foundation
import GirdersSupport

/// The formats a trema document exports to.
public enum TremaExportFormat: String, Sendable, CaseIterable {
    /// Apple `.strings` files; see ``StringsExporter``.
    case strings
    /// An Xcode String Catalog; see ``StringCatalogExporter``.
    case xcstrings
    /// Android `strings.xml` resources; see ``AndroidExporter``.
    case android
    /// Swift source; see ``SwiftSourceExporter``.
    case swift

    /// This format's files for `document`.
    /// - Throws: ``TremaError/invalidOption(option:value:reason:)`` before anything is produced when an option
    ///   would become a path outside the output folder or invalid code, and the exporter's own errors.
    public func export(
        _ document: TremaDocument, options: ExportOptions = ExportOptions()
    ) throws(TremaError)
        -> [ExportedFile]
    {
        try options.validate()
        return switch self {
        case .strings: StringsExporter.export(document, options: options)
        case .xcstrings: try StringCatalogExporter.export(document, options: options)
        case .android: try AndroidExporter.export(document, options: options)
        case .swift: SwiftSourceExporter.export(document, options: options)
        }
    }
}

extension TremaDocument {
    /// The files of every format in `formats`, produced in parallel, in the order of `formats`.
    /// - Throws: the first format's ``TremaError``, after all formats finished.
    public func export(
        _ formats: [TremaExportFormat], options: ExportOptions = ExportOptions()
    ) throws(TremaError) -> [ExportedFile] {
        try options.validate()
        let results = LockedState([Result<[ExportedFile], TremaError>?](repeating: nil, count: formats.count))
        DispatchQueue.concurrentPerform(iterations: formats.count) { index in
            let outcome: Result<[ExportedFile], TremaError>
            do throws(TremaError) {
                outcome = .success(try formats[index].export(self, options: options))
            } catch {
                outcome = .failure(error)
            }
            results.withLock { $0[index] = outcome }
        }
        var files: [ExportedFile] = []
        for outcome in results.withLock({ $0 }) {
            switch outcome {
            case .success(let produced): files += produced
            case .failure(let error): throw error
            case nil: continue
            }
        }
        return files
    }
}
