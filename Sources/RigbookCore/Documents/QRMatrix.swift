import Foundation

/// A QR code as modules: `size` × `size`, dark or light, row by row, without the quiet zone.
/// Made by the encoder (`RigbookQR`, the one place that imports libqrencode); drawn here as SVG for labels
/// and as half-block characters for the terminal, so neither drawing depends on the C library.
public struct QRMatrix: Sendable, Hashable {
    public let size: Int
    public let modules: [Bool]
    /// The light margin every reader needs around the code, in modules (ISO/IEC 18004 asks for 4).
    public static let quietZone = 4

    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR matrix is square")
        self.size = size
        self.modules = modules
    }

    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// Modules across, the quiet zone on both sides included.
    public func span(quiet: Int = QRMatrix.quietZone) -> Int { size + 2 * quiet }

    /// Inline SVG, `modulePixels` CSS pixels a module, quiet zone included, one path for the dark modules and
    /// `shape-rendering: crispEdges`, so every module is whole device pixels (4 at a device scale factor of 2
    /// for 2 CSS pixels a module).
    public func svg(modulePixels: Int, title: String) -> String {
        let span = span()
        let side = span * modulePixels
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else { x += 1; continue }
                var run = 1
                while isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + QRMatrix.quietZone) \(y + QRMatrix.quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(side)\" height=\"\(side)\" "
            + "viewBox=\"0 0 \(span) \(span)\" shape-rendering=\"crispEdges\" role=\"img\" "
            + "style=\"shape-rendering: crispEdges\"><title>\(HTMLReport.escape(title))</title>"
            + "<rect width=\"\(span)\" height=\"\(span)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// The code as lines of half-block characters (two module rows a line): `█` both dark, `▀` top, `▄` bottom,
    /// space neither, with a `quiet`-module margin. Drawn dark-on-light by the terminal (see `HistoryState`).
    public func halfBlockLines(quiet: Int = 2) -> [String] {
        let span = size + 2 * quiet
        var lines: [String] = []
        var y = 0
        while y < span {
            var line = ""
            for x in 0..<span {
                let top = isDark(x: x - quiet, y: y - quiet)
                let bottom = y + 1 < span && isDark(x: x - quiet, y: y + 1 - quiet)
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            lines.append(line)
            y += 2
        }
        return lines
    }
}
