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
        return try exportInParallel(formats, options: options, beside: {}).get()
    }

    /// The lint errors (``TremaLinter``, without its warnings) and the files of every format in `formats` (or
    /// the first format's error), all produced in parallel: what `trema convert` needs before it writes anything.
    /// Lint, the longest job, starts first.
    /// - Throws: only an invalid option, before anything runs.
    package func lintErrorsAndExport(
        _ formats: [TremaExportFormat], options: ExportOptions, android: Bool
    ) throws(TremaError) -> (errors: [LintFinding], files: Result<[ExportedFile], TremaError>) {
        try options.validate()
        let errors = LockedState<[LintFinding]>([])
        let files = exportInParallel(formats, options: options) {
            let found = TremaLinter.lint(self, android: android, warnings: false)
            errors.withLock { $0 = found }
        }
        return (errors.withLock { $0 }, files)
    }

    /// Runs `job` and each format's export at once (the job first), waiting for all; the files in the order of
    /// `formats`, or the first format's error.
    private func exportInParallel(
        _ formats: [TremaExportFormat], options: ExportOptions, beside job: @Sendable () -> Void
    ) -> Result<[ExportedFile], TremaError> {
        var shared = options
        if formats.count > 1 {  // found once, not per format
            if shared.languages == nil { shared.languages = languages }
            shared.sharedEntries = entries
        }
        let options = shared
        let results = LockedState([Result<[ExportedFile], TremaError>?](repeating: nil, count: formats.count))
        DispatchQueue.concurrentPerform(iterations: formats.count + 1) { iteration in
            guard iteration > 0 else { return job() }
            let index = iteration - 1
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
            case .failure(let error): return .failure(error)
            case nil: continue
            }
        }
        return .success(files)
    }
}
