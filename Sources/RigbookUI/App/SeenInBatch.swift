/// The input batch (`ScreenContext.batch`) in which something a person must see appeared: the
/// confirmation got the focus, a question opened, the form last changed. A key that would act on it
/// counts only from a later batch, once a frame has shown it; keys typed ahead or pasted without
/// bracketed paste arrive in the same batch and are refused.
struct SeenInBatch: Sendable, Equatable {
    private(set) var batch: Int

    init(_ batch: Int) { self.batch = batch }

    mutating func appeared(in batch: Int) { self.batch = batch }

    /// Whether a key read in `batch` came after a frame showed it.
    func isSeen(by batch: Int) -> Bool { batch > self.batch }
}
