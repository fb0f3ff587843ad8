import RigbookCore

/// The columns that decide an asset's status, kept beside its summary so that for any given day each status is a
/// range of indexed columns (`StatusRanges`): the list reads a screenful and six counts, not every row.
///
/// They hold what `StatusRules` works out from the asset and its summary and nothing else: the class of the asset
/// (a status no day changes, or which day-dependent group it is in), its next due date, the first day of its DUE
/// SOON window and its open remedy deadline. Triggers keep them from the columns they are made of on every insert
/// and update, whichever path wrote (a save, an import, a merge, a pull, an asset's change, a migration), and refuse
/// any other value: a status cannot be set by hand, only by the records and particulars it comes from.
enum StatusColumns {
    /// The classes `status_class` holds. The day decides between the statuses of the last three.
    enum Class: Int, CaseIterable {
        case retired = 0, withdrawn, failed, quarantined, untested
        /// An open remedy deadline: REMEDY BY, or DO NOT USE once passed, or OVERDUE before that if due.
        case remedy
        /// A due date and no deadline: OK, DUE SOON or OVERDUE.
        case dated
    }

    static let names = ["status_class", "status_due", "status_soon", "status_remedy"]

    /// The four values, in `names`' order, as SQL over the row's columns (each prefixed by `row`: "NEW." in a
    /// trigger). Mirrors `StatusRules.nextDue`, `dueSoonWindow` and `evaluate`; dates are ISO text, which sorts as
    /// dates do, and a date SQLite cannot read is NULL, as `CalendarDate` reads it.
    static func expressions(row p: String) -> [String] {
        let base = "coalesce(date(\(p)last_thorough_date), date(\(p)commissioned))"
        let added = "date(\(base), '+' || \(p)interval_months || ' months')"
        // SQLite carries 31 January + 1 month into March: back to the end of the month it reached, as Rigbook does.
        let byInterval = "(CASE WHEN substr(\(added), 9) = substr(\(base), 9) THEN \(added)"
            + " ELSE date(\(added), 'start of month', '-1 day') END)"
        let set = "date(\(p)next_examination_by)"
        let due = "(CASE WHEN \(set) IS NULL THEN \(byInterval) WHEN \(byInterval) IS NULL THEN \(set)"
            + " ELSE min(\(byInterval), \(set)) END)"
        let window = "(CASE WHEN \(p)interval_months >= \(6) THEN \(StatusRules.dueSoonDays)"
            + " ELSE max(0, \(p)interval_months) * 365 / 48 END)"
        let soon = "date(\(due), '-' || \(window) || ' days')"
        let remedy = "date(\(p)open_remedy_deadline)"
        let failed = "(date(\(p)unresolved_fail_date) IS NOT NULL OR (\(p)last_thorough_result = "
            + "'\(InspectionResult.failDangerous.rawValue)' AND date(\(p)last_thorough_date) IS NOT NULL))"
        let statusClass = """
            (CASE WHEN date(\(p)retired_on) IS NOT NULL THEN \(Class.retired.rawValue)
             WHEN \(p)out_of_service = '\(InspectionAction.withdraw.rawValue)' THEN \(Class.withdrawn.rawValue)
             WHEN \(failed) THEN \(Class.failed.rawValue)
             WHEN \(p)out_of_service = '\(InspectionAction.quarantine.rawValue)' THEN \(Class.quarantined.rawValue)
             WHEN \(remedy) IS NOT NULL THEN \(Class.remedy.rawValue)
             WHEN \(due) IS NULL THEN \(Class.untested.rawValue)
             ELSE \(Class.dated.rawValue) END)
            """
        return [statusClass, due, soon, remedy]
    }

    /// True for a row whose status columns are not what its columns make (`row`: as in `expressions`).
    static func differs(row p: String) -> String {
        zip(names, expressions(row: p)).map { "\(p)\($0) IS NOT \($1)" }.joined(separator: " OR ")
    }

    /// What `verify` says of assets whose status columns were set behind Rigbook's back (its triggers dropped
    /// first): the list would show them among the wrong status, a dangerous item among the OK ones.
    static func problems(_ db: Database) throws -> [String] {
        let statement = try db.prepare("SELECT tag, uuid FROM assets WHERE \(differs(row: ""))")
        var problems: [String] = []
        while try statement.step() {
            let asset = "asset \(VisibleText.make(statement.text(0))) (\(statement.text(1).lowercased()))"
            problems.append(asset + " is listed by status columns its summary does not give: they were changed "
                            + "behind Rigbook's back")
        }
        return problems
    }

    /// The triggers that keep them what the summary makes, and the summary what the records fold to: with any of
    /// them gone (dropped behind Rigbook's back) the columns may place an asset among the wrong status.
    static let guards = ["assets_statuses_on_insert", "assets_statuses_on_update", "assets_statuses_are_derived",
                         "assets_summaries_are_folded"]

    /// The columns they are made of: a change of any of them makes them again.
    static let inputs = ["last_thorough_date", "commissioned", "interval_months", "next_examination_by",
                         "open_remedy_deadline", "unresolved_fail_date", "last_thorough_result", "out_of_service",
                         "retired_on"]

    /// `assets_by_tag_length` finds the longest tags, which the list's tag column must fit, without a pass over
    /// every tag.
    ///
    /// Lifting equipment whose interval is longer than LOLER reg 9(3) allows without a scheme (whether a scheme
    /// sets it is read from each of these rows): the list's header counts them.
    static let longIntervals: String = {
        let accessories = EquipmentType.allCases.filter(\.isAccessory).map { "'\($0.rawValue)'" }
            .joined(separator: ", ")
        return "asset_kind IS NULL AND interval_months > (CASE WHEN lifts_persons = 1 OR type IN (\(accessories))"
            + " THEN 6 ELSE 12 END)"
    }()

    /// Adds them, fills them, indexes them and keeps them. Each index holds the tag (the table's key), so a status's
    /// rows come in tag order from its ranges alone; `assets_in_list_order` walks every row in tag order with what
    /// decides its status, for the statuses most rows have; `assets_by_class_and_tag` gives a whole class (WITHDRAWN,
    /// UNTESTED, a dangerous fail) in tag order with nothing to sort.
    static let migrationSQL: String = {
        let set = zip(names, expressions(row: "")).map { "\($0) = \($1)" }.joined(separator: ", ")
        let setNew = zip(names, expressions(row: "NEW.")).map { "\($0) = \($1)" }.joined(separator: ", ")
        return """
            ALTER TABLE assets ADD COLUMN status_class INTEGER;
            ALTER TABLE assets ADD COLUMN status_due TEXT;
            ALTER TABLE assets ADD COLUMN status_soon TEXT;
            ALTER TABLE assets ADD COLUMN status_remedy TEXT;
            UPDATE assets SET \(set);
            CREATE INDEX assets_by_status_due ON assets(status_class, status_due);
            CREATE INDEX assets_by_status_soon ON assets(status_class, status_soon, status_due);
            CREATE INDEX assets_by_status_remedy ON assets(status_class, status_remedy, status_due);
            CREATE INDEX assets_in_list_order ON assets(tag, status_class, status_due, status_soon, status_remedy);
            CREATE INDEX assets_by_class_and_tag ON assets(status_class, tag);
            CREATE INDEX assets_with_long_intervals ON assets(tag) WHERE \(longIntervals);
            CREATE INDEX assets_by_tag_length ON assets(length(tag));
            CREATE TRIGGER assets_statuses_on_insert AFTER INSERT ON assets
            BEGIN UPDATE assets SET \(setNew) WHERE tag = NEW.tag; END;
            CREATE TRIGGER assets_statuses_on_update AFTER UPDATE OF \(inputs.joined(separator: ", ")) ON assets
            BEGIN UPDATE assets SET \(setNew) WHERE tag = NEW.tag; END;
            CREATE TRIGGER assets_statuses_are_derived BEFORE UPDATE OF \(names.joined(separator: ", ")) ON assets
            WHEN \(differs(row: "NEW."))
            BEGIN SELECT RAISE(ABORT, 'an asset''s status columns follow its summary: save a record instead'); END;
            """
    }()
}
