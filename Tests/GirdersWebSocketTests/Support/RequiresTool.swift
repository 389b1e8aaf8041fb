#if os(macOS) || os(Linux)
import GirdersTestProcesses
import Testing

extension Trait where Self == ConditionTrait {
    /// Enabled where `tool` is on the machine; elsewhere the test skips with the tool's one line (``TestTool``).
    static func requires(_ tool: TestTool) -> Self {
        .enabled(Comment(rawValue: tool.skipNote)) { await tool.isAvailable() }
    }
}
#endif
