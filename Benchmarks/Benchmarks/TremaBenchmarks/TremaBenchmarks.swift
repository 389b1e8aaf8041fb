// GirdersTrema: a generated trema file of 20,000 keys in 4 languages, parsed and exported to every format.
import Benchmark
import Foundation
import GirdersTrema

/// 20,000 keys in de, en, fr, it with contexts, placeholders and escapes, as trema XML.
func generatedTrema(keys: Int = 20_000) -> Data {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<trema masterLang=\"de\">\n"
    for index in 0..<keys {
        xml +=
            "  <text key=\"screen\(index % 50).item.\(index)\">\n    <context>Label \(index) on screen \(index % 50)</context>\n"
        for language in ["de", "en", "fr", "it"] {
            let status = index % 7 == 0 ? "initial" : "verified"
            xml +=
                "    <value lang=\"\(language)\" status=\"\(status)\">Text \(index) in \(language): %1$@ has %2$d items &amp; \\\"more\\\"\\nline two</value>\n"
        }
        xml += "  </text>\n"
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
