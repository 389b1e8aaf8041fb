// GirdersTrema: a generated trema file of 20,000 keys in 4 languages, parsed and exported to every format.
import Benchmark
import Foundation
import GirdersTrema

/// 20,000 keys in de, en, fr, it with contexts, placeholders and escapes, as trema XML; one base key in 20 is a plural
/// text with `one`, `many` and `other` forms (what `Scripts/trema/generate-bench-file.py` writes for `trema convert`).
func generatedTrema(keys: Int = 20_000) -> Data {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trema masterLang=\"de\">\n"
    var index = 0
    var written = 0
    func text(_ key: String, _ label: String, _ prefix: String, status: (String) -> String) {
        xml += "  <text key=\"\(key)\">\n    <context>\(label) \(index) on screen \(index % 50)</context>\n"
        for language in ["de", "en", "fr", "it"] {
            xml +=
                "    <value lang=\"\(language)\" status=\"\(status(language))\">\(prefix) \(index) in \(language): %1$@ has %2$d items &amp; \\\"more\\\"\\nline two</value>\n"
        }
        xml += "  </text>\n"
        written += 1
    }
    while written < keys {
        if index % 20 == 19 {
            for category in ["one", "many", "other"] {
                text("screen\(index % 50).count.\(index)#\(category)", "Count", category) { _ in "verified" }
            }
        } else {
            text("screen\(index % 50).item.\(index)", "Label", "Text") { _ in index % 7 == 0 ? "initial" : "verified" }
        }
        index += 1
    }
    return Data((xml + "</trema>\n").utf8)
}

let benchmarks: @Sendable () -> Void = {
    let data = generatedTrema()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 10)

    Benchmark("20,000 keys x 4 languages: parse", configuration: configuration) { _ in
        blackHole(try TremaDocument(data: data))
    }
    Benchmark("20,000 keys x 4 languages: parse and all four exports", configuration: configuration) { _ in
        let document = try TremaDocument(data: data)
        blackHole(try document.export(TremaExportFormat.allCases, options: ExportOptions(includesComments: true)))
    }
    Benchmark("20,000 keys x 4 languages: parse and all four exports, one after another", configuration: configuration)
    { _ in
        let document = try TremaDocument(data: data)
        for format in TremaExportFormat.allCases {
            blackHole(try format.export(document, options: ExportOptions(includesComments: true)))
        }
    }
    Benchmark("20,000 keys x 4 languages: parse, export and write to disk", configuration: configuration) { _ in
        let document = try TremaDocument(data: data)
        let files = try document.export(TremaExportFormat.allCases, options: ExportOptions(includesComments: true))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trema-bench-\(UUID().uuidString)")
        try ExportedFile.write(files, to: folder)
        try FileManager.default.removeItem(at: folder)
    }
}
