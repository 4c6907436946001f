import CCairo

/// A PDF file being drawn with cairo: the one type that holds cairo's
/// pointers. Points from the page's top left; text in DejaVu Sans (cairo
/// embeds the subsets it uses); A4 portrait unless told.
final class PDFCanvas {
    /// A4 in points.
    static let a4 = (width: 595.276, height: 841.89)

    let width: Double
    let height: Double
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let regular: OpaquePointer
    private let bold: OpaquePointer
    private var widths: [String: Double] = [:]
    private var fontKey = ""

    init(path: String, title: String, width: Double = PDFCanvas.a4.width, height: Double = PDFCanvas.a4.height)
        throws(ToolError)
    {
        self.width = width
        self.height = height
        surface = cairo_pdf_surface_create(path, width, height)
        cr = cairo_create(surface)
        regular = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        bold = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        try check("cannot start the PDF \(path)")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "trackee report")
    }

    deinit {
        cairo_font_face_destroy(regular)
        cairo_font_face_destroy(bold)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// The font for what is drawn and measured next.
    func font(size: Double, bold isBold: Bool = false) {
        cairo_set_font_face(cr, isBold ? bold : regular)
        cairo_set_font_size(cr, size)
        fontKey = "\(isBold ? "b" : "r")\(size)|"
    }

    /// `text` with its baseline at `y`, starting at `x`.
    func text(_ text: String, x: Double, y: Double, color: RGB = .black) {
        guard !text.isEmpty else { return }
        set(color)
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, text)
    }

    /// How far `text` advances in the current font.
    func width(_ text: String) -> Double {
        let key = fontKey + text
        if let known = widths[key] { return known }
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        if widths.count < 50_000 { widths[key] = extents.x_advance }
        return extents.x_advance
    }

    /// `text` cut with `…` to fit `room`, in the current font.
    func fit(_ text: String, _ room: Double) -> String {
        guard width(text) > room else { return text }
        let characters = Array(text)
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            if width(String(characters[..<mid]) + "…") <= room { low = mid } else { high = mid - 1 }
        }
        return String(characters[..<low]) + "…"
    }

    func fill(x: Double, y: Double, width: Double, height: Double, color: RGB) {
        guard width > 0, height > 0 else { return }
        set(color)
        cairo_rectangle(cr, x, y, width, height)
        cairo_fill(cr)
    }

    func line(x1: Double, y1: Double, x2: Double, y2: Double, color: RGB = .rule, width: Double = 0.5) {
        set(color)
        cairo_set_line_width(cr, width)
        cairo_move_to(cr, x1, y1)
        cairo_line_to(cr, x2, y2)
        cairo_stroke(cr)
    }

    /// Ends the page; what is drawn next is on a new one.
    func nextPage() { cairo_show_page(cr) }

    /// Ends the last page and writes the file out.
    func finish(_ path: String) throws(ToolError) {
        cairo_show_page(cr)
        cairo_surface_finish(surface)
        try check("cannot write the PDF \(path)")
    }

    private func set(_ color: RGB) { cairo_set_source_rgb(cr, color.red, color.green, color.blue) }

    private func check(_ what: String) throws(ToolError) {
        let status = cairo_status(cr) != CAIRO_STATUS_SUCCESS ? cairo_status(cr) : cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ToolError("\(what): \(String(cString: cairo_status_to_string(status)))", status: ReportFileTool.ioError)
        }
    }
}
