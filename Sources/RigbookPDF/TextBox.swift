import CPangoCairo

/// How a piece of text is set: DejaVu Sans at a size and weight; fontconfig falls back to Noto Sans CJK for the
/// characters DejaVu does not have (`仓库 2`).
enum TextStyle: CaseIterable {
    case title, heading, subheading, body, strong, label, small, footer

    var font: String {
        switch self {
        case .title: "DejaVu Sans Bold 14"
        case .heading: "DejaVu Sans Bold 10"
        case .subheading: "DejaVu Sans Bold 8.5"
        case .body: "DejaVu Sans 7.5"
        case .strong: "DejaVu Sans Bold 7.5"
        case .label: "DejaVu Sans 6.5"
        case .small: "DejaVu Sans 7"
        case .footer: "DejaVu Sans 6.5"
        }
    }
}

/// Makes the text boxes of one cairo context: one pango context for all of them, and each font parsed once (a
/// report sets some 700,000 cells; a pango context and a font description each were most of a cell's cost).
final class Typesetter {
    let context: OpaquePointer
    private let pango: OpaquePointer
    private var fonts: [String: OpaquePointer] = [:]

    init(_ context: OpaquePointer) {
        self.context = context
        pango = pango_cairo_create_context(context)
    }

    deinit {
        for font in fonts.values { pango_font_description_free(font) }
        g_object_unref(UnsafeMutableRawPointer(pango))
    }

    func box(_ text: String, _ style: TextStyle, width: Double, alignRight: Bool = false) -> TextBox {
        box(text, font: style.font, width: width, alignRight: alignRight)
    }

    /// Text in a font described as pango describes one (`DejaVu Sans Bold 14`).
    func box(_ text: String, font description: String, width: Double, alignRight: Bool = false) -> TextBox {
        let font: OpaquePointer
        if let known = fonts[description] {
            font = known
        } else {
            font = pango_font_description_from_string(description)
            fonts[description] = font
        }
        return TextBox(pango: pango, cairo: context, text: text, font: font, width: width, alignRight: alignRight)
    }

    /// A box whose text has a character no font on this machine can draw: refused, naming the fonts to install.
    func checked(_ box: TextBox) throws(PDFError) -> TextBox {
        guard box.unknownGlyphs == 0 else {
            throw PDFError(description: "no font here draws every character of “\(box.text.prefix(40))”: install "
                           + "fonts-dejavu-core and fonts-noto-cjk (apt-get install fonts-dejavu-core fonts-noto-cjk)")
        }
        return box
    }
}

/// A text laid out by pango in a width: wrapped at words (a word longer than the width at characters), its line
/// breaks kept. Measured when made; drawn where it is put, whole or some of its lines.
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

    fileprivate init(pango: OpaquePointer, cairo: OpaquePointer, text: String, font: OpaquePointer, width: Double,
                     alignRight: Bool) {
        self.text = text
        context = cairo
        layout = pango_layout_new(pango)
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, Int32(max(1, width) * TextBox.scale))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        if alignRight { pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT) }
        pango_layout_set_text(layout, text, -1)
        var inkWidth: Int32 = 0, inkHeight: Int32 = 0
        pango_layout_get_size(layout, &inkWidth, &inkHeight)
        self.width = alignRight ? width : Double(inkWidth) / TextBox.scale
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

    /// Where each line ends, from the top of the box: the places the box can be cut between pages.
    var lineBottoms: [Double] {
        var bottoms: [Double] = []
        guard !text.isEmpty, let iterator = pango_layout_get_iter(layout) else { return bottoms }
        defer { pango_layout_iter_free(iterator) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            bottoms.append(Double(logical.y + logical.height) / TextBox.scale)
        } while pango_layout_iter_next_line(iterator) != 0
        return bottoms
    }

    /// Lines `lines` of the box, the first of them at `y`: a part of a box taller than a page.
    func draw(lines: Range<Int>, x: Double, y: Double) {
        guard !text.isEmpty, let iterator = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iterator) }
        cairo_set_source_rgb(context, 0, 0, 0)
        var index = 0, top: Double?
        repeat {
            if lines.contains(index) {
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iterator, nil, &logical)
                let lineTop = Double(logical.y) / TextBox.scale
                if top == nil { top = lineTop }
                let baseline = Double(pango_layout_iter_get_baseline(iterator)) / TextBox.scale
                cairo_move_to(context, x + Double(logical.x) / TextBox.scale, y + baseline - (top ?? lineTop))
                pango_cairo_show_layout_line(context, pango_layout_iter_get_line_readonly(iterator))
            }
            index += 1
        } while index < lines.upperBound && pango_layout_iter_next_line(iterator) != 0
    }
}
