/// What the inspection form's layout and drawing keep from one key to the next, owned by the form: a copy of the
/// form shares it (each memo is keyed by everything its work reads, so a stale entry can only be missed, never
/// shown), and each form opened starts with its own.
final class FormMemos: Sendable {
    let groups = FormGroupsMemo()
    let wraps = WrapMemo()
    let lines = FormLineMemo()
    let title = ScreenRowMemo<FormView.TitleKey>()
    let preview = ScreenRowMemo<FormView.PreviewKey>()
    let footerRow = ScreenRowMemo<Int>()
    let footer = FooterMemo { FormState.footerKeymap.footer(width: $0) }
}
