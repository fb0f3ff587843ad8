import Foundation

/// One asset of a batch inspection as the gate sees it: its tag (to name it in a problem) and its own gate
/// context (commission date, interval, particulars, session id).
public struct BatchMember: Sendable {
    public var tag: String
    public var context: SaveGate.Context

    public init(tag: String, context: SaveGate.Context) {
        self.tag = tag
        self.context = context
    }
}

/// The save gate for a batch: the shared values go through `SaveGate.validate` once per asset,
/// so every record is validated exactly as a single form's would be. The batch saves only when every asset
/// passes; a rule only some assets break names them.
public enum BatchGate {
    public static func validate(_ values: InspectionValues,
                                members: [BatchMember]) -> Result<[ValidatedInspection], SaveGate.Failure> {
        guard !members.isEmpty else {
            return .failure(SaveGate.Failure(problems: [
                GateProblem(field: .inspectionType, message: "The batch holds no asset: mark some on the list."),
            ]))
        }
        var records: [ValidatedInspection] = []
        var byProblem: [GateProblem: [String]] = [:]
        var order: [GateProblem] = []
        for member in members {
            switch SaveGate.validate(values, context: member.context) {
            case .success(let record): records.append(record)
            case .failure(let failure):
                for problem in failure.problems {
                    if byProblem[problem] == nil { order.append(problem) }
                    byProblem[problem, default: []].append(member.tag)
                }
            }
        }
        guard !order.isEmpty else { return .success(records) }
        let problems = order.map { problem -> GateProblem in
            let tags = byProblem[problem] ?? []
            guard tags.count < members.count else { return problem }
            return GateProblem(field: problem.field, message: named(tags) + ": " + problem.message)
        }
        return .failure(SaveGate.Failure(problems: problems.sorted { $0.field < $1.field }))
    }

    /// Every unmet rule, as `validate` words it.
    public static func problems(_ values: InspectionValues, members: [BatchMember]) -> [GateProblem] {
        switch validate(values, members: members) {
        case .success: []
        case .failure(let failure): failure.problems
        }
    }

    /// "SL-1", "SL-1, SL-2", "SL-1, SL-2, SL-3 and 4 more".
    static func named(_ tags: [String]) -> String {
        tags.count <= 3 ? tags.joined(separator: ", ")
            : tags.prefix(3).joined(separator: ", ") + " and \(tags.count - 3) more"
    }

    /// What saving would record for one asset that differs from the others: the Schedule 1 basis and the
    /// latest date of the next thorough examination (both from its own interval unless the examiner set
    /// them), and whether it takes a report number. Nil values: not a thorough examination.
    public struct Outlook: Sendable, Equatable {
        public var basis: ExaminationBasis?
        public var nextExaminationBy: CalendarDate?
        public var takesReportNumber: Bool
        /// How many of the gate's rules this asset breaks.
        public var problemCount: Int
    }

    public static func outlook(_ values: InspectionValues, member: BatchMember) -> Outlook {
        let context = member.context
        let problems = SaveGate.problems(values, context: context).count
        guard values.inspectionType.isThorough else {
            return Outlook(basis: nil, nextExaminationBy: nil, takesReportNumber: false, problemCount: problems)
        }
        let basis = values.examinationBasis
            ?? ExaminationBasis.prefill(for: values.inspectionType, intervalMonths: context.intervalMonths)
        let date = CalendarDate(iso: values.inspectionDate.trimmingCharacters(in: .whitespaces))
        let typed = CalendarDate(iso: values.nextExaminationBy.trimmingCharacters(in: .whitespaces))
        let next = typed ?? date.map(context.intervalDue(after:))
        return Outlook(basis: basis, nextExaminationBy: next, takesReportNumber: true, problemCount: problems)
    }
}
