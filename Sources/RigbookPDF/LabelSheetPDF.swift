import CPangoCairo
import RigbookCore

/// Labels drawn as PDF on A4 sheets at the stationery's exact geometry (`Labels.Sheet`, in millimetres), so a 2×7
/// sheet prints onto 2×7 label stock at 100 %. Each label: its QR code as vector squares with its quiet zone, at the
/// left; its face's lines beside it, set as the page sets them; the DANGER tag framed in red.
public enum LabelSheetPDF {
    static let point = 72 / 25.4

    public static func render(_ labels: [Labels.Printed], sheet: Labels.Sheet, title: String,
                              created: String) throws(PDFError) -> [UInt8] {
        try PDFRenderer.withPDF(title: title, author: "", created: created) {
            (context: OpaquePointer) throws(PDFError) in
            let type = Typesetter(context)
            for (index, label) in labels.enumerated() {
                let slot = index % sheet.perSheet
                if slot == 0 && index > 0 { cairo_show_page(context) }
                let column = slot % sheet.columns, row = slot / sheet.columns
                let x = (sheet.left + Double(column) * (sheet.labelWidth + sheet.columnGap)) * point
                let y = (sheet.top + Double(row) * (sheet.labelHeight + sheet.rowGap)) * point
                try draw(label, with: type, x: x, y: y, width: sheet.labelWidth * point,
                         height: sheet.labelHeight * point, small: sheet.isSmall)
            }
            cairo_show_page(context)
        }
    }

    private static func draw(_ label: Labels.Printed, with type: Typesetter, x: Double, y: Double, width: Double,
                             height: Double, small: Bool) throws(PDFError) {
        let context = type.context, padding = Labels.padding * point
        cairo_save(context)
        cairo_rectangle(context, x, y, width, height)
        cairo_clip(context)
        if label.layout == .danger {
            let border = (small ? 0.8 : 1.2) * point
            cairo_set_source_rgb(context, 0.776, 0.157, 0.157)
            cairo_set_line_width(context, border)
            cairo_rectangle(context, x + border / 2, y + border / 2, width - border, height - border)
            cairo_stroke(context)
        }
        var textX = x + padding
        if let matrix = label.qr {
            let side = min(height - 2 * padding, width * 0.42)
            QRDrawing.draw(matrix, in: context, x: x + padding, y: y + (height - side) / 2, side: side)
            textX += side + 1.5 * point
        }
        let textWidth = x + width - padding - textX
        var lineY = y + padding
        for line in label.face.lines {
            let box = try type.checked(type.box(line.text.plain, font: font(line.kind, small: small),
                                                width: textWidth))
            let red: (Double, Double, Double) = (0.776, 0.157, 0.157), black: (Double, Double, Double) = (0, 0, 0)
            var ink = line.kind == .bigStop || line.kind == .stop ? red : black
            if let band = line.band ?? (line.kind == .dangerHead ? .red : nil) {
                let fill = rgb(band.hex), pad = 0.4 * point
                cairo_set_source_rgb(context, fill.0, fill.1, fill.2)
                cairo_rectangle(context, textX, lineY, textWidth, box.height + 2 * pad)
                cairo_fill(context)
                ink = rgb(band.inkHex)
                box.draw(x: textX + 1.5 * point, y: lineY + pad, colour: ink)
                lineY += box.height + 2 * pad + 0.8 * point
                continue
            }
            if line.kind == .employer { ink = (0.2, 0.2, 0.2) }
            box.draw(x: textX, y: lineY, colour: ink)
            lineY += box.height + (small ? 0.3 : 1) * point
        }
        cairo_restore(context)
    }

    /// The page's sizes and weights for each kind of line, on a short label and a tall one.
    static func font(_ kind: Labels.Face.Kind, small: Bool) -> String {
        let (size, bold): (Double, Bool) = switch kind {
        case .tag: (small ? 12 : 16, true)
        case .big, .bigStop, .bigRetest: (small ? 15 : 24, true)
        case .head, .dangerHead: (small ? 8 : 11, true)
        case .head2: (small ? 6.5 : 8, true)
        case .band, .stop: (small ? 7 : 10, true)
        case .line, .wrap: (small ? 7.5 : 9, false)
        case .small, .smallWrap, .full, .reason: (small ? 6 : 7.5, false)
        case .employer: (small ? 5.5 : 7, false)
        }
        return "DejaVu Sans\(bold ? " Bold" : "") \(size)"
    }

    /// `#rrggbb` as cairo's fractions.
    static func rgb(_ hex: String) -> (Double, Double, Double) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return (0, 0, 0) }
        return (Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
    }
}
