import CPangoCairo
import RigbookCore

/// A QR code as vector squares, `side` points across with its quiet zone left white. Each row's run of dark modules
/// is one rectangle, reaching a twentieth of a module into the row below: a viewer that smooths edges then draws no
/// pale seam between rows for a scanner to trip on (a light module loses a twentieth of its top, which no reader
/// minds).
enum QRDrawing {
    static func draw(_ matrix: QRMatrix, in context: OpaquePointer, x: Double, y: Double, side: Double) {
        // Modules of whole dots of a 300 dpi printer, on its grid (600 dpi too): each module's edge falls between
        // dots, not across them.
        let dot = 72.0 / 300
        let module = max(dot, (side / Double(matrix.span()) / dot).rounded(.down) * dot)
        let x = (x / dot).rounded() * dot, y = (y / dot).rounded() * dot
        let overlap = module / 20
        cairo_set_source_rgb(context, 0, 0, 0)
        for row in 0..<matrix.size {
            var column = 0
            while column < matrix.size {
                guard matrix.isDark(x: column, y: row) else { column += 1; continue }
                var run = 1
                while matrix.isDark(x: column + run, y: row) { run += 1 }
                let below = row + 1 < matrix.size ? overlap : 0
                cairo_rectangle(context, x + Double(column + QRMatrix.quietZone) * module,
                                y + Double(row + QRMatrix.quietZone) * module, Double(run) * module, module + below)
                column += run
            }
        }
        cairo_fill(context)
    }
}
