import CPangoCairo

/// How a piece of text is set: DejaVu Sans at a size and weight; fontconfig falls back to Noto Sans CJK for the
/// characters DejaVu does not have (`仓库 2`).
enum TextStyle {
    case title, heading, body, strong, label, small, footer

    var font: String {
        switch self {
        case .title: "DejaVu Sans Bold 14"
        case .heading: "DejaVu Sans Bold 10"
        case .body: "DejaVu Sans 7.5"
        case .strong: "DejaVu Sans Bold 7.5"
        case .label: "DejaVu Sans 6.5"
        case .small: "DejaVu Sans 7"
        case .footer: "DejaVu Sans 6.5"
        }
    }
}

/// A text laid out by pango in a width: wrapped at words (a word longer than the width at characters), its
/// line breaks kept. Measured when made; drawn where it is put.
final class TextBox {
    let text: String
    private let layout: OpaquePointer
    private let context: OpaquePointer
    let width: Double
    let height: Double
    /// Characters no font on the machine has a glyph for (drawn as boxes if drawn at all).
    let unknownGlyphs: Int

    /// Pango's units a point.
    private static let scale = 1024.0

    convenience init(_ context: OpaquePointer, text: String, style: TextStyle, width: Double) {
        self.init(context, text: text, font: style.font, width: width)
    }

    /// Text in a font described as pango describes one (`DejaVu Sans Bold 14`).
    init(_ context: OpaquePointer, text: String, font description: String, width: Double) {
        self.text = text
        self.context = context
        layout = pango_cairo_create_layout(context)
        let font = pango_font_description_from_string(description)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(max(1, width) * TextBox.scale))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_text(layout, text, -1)
        var inkWidth: Int32 = 0, inkHeight: Int32 = 0
        pango_layout_get_size(layout, &inkWidth, &inkHeight)
        self.width = Double(inkWidth) / TextBox.scale
        height = text.isEmpty ? 0 : Double(inkHeight) / TextBox.scale
        unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    func draw(x: Double, y: Double, colour: (Double, Double, Double) = (0, 0, 0)) {
        guard !text.isEmpty else { return }
        cairo_set_source_rgb(context, colour.0, colour.1, colour.2)
        cairo_move_to(context, x, y)
        pango_cairo_show_layout(context, layout)
    }
}
