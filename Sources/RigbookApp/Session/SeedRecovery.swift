import RigbookStore
import RigbookUI

extension DraftedFormSeed {
    /// The same opening with a draft file's values, session and focus: what recovering it opens.
    public func recovering(_ values: Values, from file: DraftFile, focus: (String) -> Field?) -> Self {
        var recovered = self
        recovered.initial = values
        recovered.sessionID = file.sessionID
        recovered.draft = DraftFileMeta(of: file)
        recovered.focus = file.focusedField.flatMap(focus)
        return recovered
    }
}
