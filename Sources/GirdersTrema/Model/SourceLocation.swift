/// Where something was found in a file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path, as given to the parser.
    public let file: String
    /// The line, counting from 1, of the position in the source file.
    public let line: Int
    /// The column, counting UTF-8 bytes from 1 (the same as characters on ASCII lines).
    public let column: Int

    /// A location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}
