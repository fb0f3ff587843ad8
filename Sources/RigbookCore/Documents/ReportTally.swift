import Foundation

/// What the report keeps of an asset between its two reads: what orders it in any section as the rows themselves
/// were ordered (its tag, its place among the report's rows, its location's number) and its uuid to read it by.
struct ReportKey: RowKey {
    var tag: String
    var uuid: UUID
    /// The asset's index among the report's rows (the first read's order): the last tie-break of every order.
    var place: Int32
    /// Its trimmed location's number in `ReportTally.locationNames`; -1 when the page has no location tables.
    var location: Int32 = -1

    /// Tag, then uuid, then place: the order of the particulars, the defects and each location's table.
    static func byTagThenUUID(_ a: ReportKey, _ b: ReportKey) -> Bool {
        if a.tag != b.tag { return a.tag < b.tag }
        let (x, y) = (a.uuid.uuidString, b.uuid.uuidString)
        if x != y { return x < y }
        return a.place < b.place
    }

    /// Tag, then place.
    static func byTag(_ a: ReportKey, _ b: ReportKey) -> Bool {
        a.tag != b.tag ? a.tag < b.tag : a.place < b.place
    }
}

/// A finding's asset as its row in the attention list shows it. Not its `RegisterRow` (some 650 bytes, and its
/// strings): at 1,000,000 assets a month's findings were on some 7,900 assets, 5 MB of rows held while the list
/// was drawn.
struct FindingAsset {
    let uuid: UUID
    let tag: String
    let name: String
    let location: String
    /// Its status on the report's day.
    let status: AssetStatus
    /// Its reasons, when the attention list lists it already; nil when it does not.
    let listedReasons: [StatusReason]?

    init(_ asset: Asset, status: AssetStatus, listedReasons: [StatusReason]?) {
        uuid = asset.uuid
        tag = asset.tag
        name = asset.name
        location = asset.location
        self.status = status
        self.listedReasons = listedReasons
    }
}

/// The report's first read: every figure the page gives before its lists (the counts, the chart, whether
/// electrical items are in it) and, for each list, a key per asset it will show; the lists' rows are read again
/// by uuid as they are written (holding every row, its status and the attention items was 1.0 GB at
/// 1,000,000 assets).
struct ReportTally {
    let today: CalendarDate
    let scope: ReportDocument.Scope
    /// The report's rows.
    private(set) var total = 0
    /// Assets per status, by attention rank; and of them the electrical items.
    private(set) var counts = [Int](repeating: 0, count: AssetStatus.allCases.count)
    private(set) var electricalCounts = [Int](repeating: 0, count: AssetStatus.allCases.count)
    /// Assets falling due in each week of the chart.
    private(set) var weeks = [Int](repeating: 0, count: ReportDocument.forecastWeeks)
    var due: DueList
    /// What the attention list shows of the assets the period's findings are about, with their reasons when it
    /// lists them already: a finding's row shows whatever the asset's status.
    private(set) var findingRows: [UUID: FindingAsset] = [:]
    private let findingAssets: Set<UUID>
    /// Intervals longer than LOLER allows; assets out of use or with a defect to remedy (the default report's
    /// findings); electrical items out of use; and, for the location tables and the whole book, every asset.
    var overlong = RowOrder<ReportKey>()
    var defects = RowOrder<ReportKey>()
    var electricalOutOfUse = RowOrder<ReportKey>()
    var all: RowOrder<ReportKey>
    /// The trimmed locations, by number, and how many assets each holds.
    private(set) var locationNames: [String] = []
    private(set) var locationSizes: [Int] = []
    private var locationNumbers: [String: Int32] = [:]

    /// `rowBound`: at least the number of rows the first read gives (room for their keys is reserved once).
    init(today: CalendarDate, scope: ReportDocument.Scope, findingAssets: Set<UUID>, rowBound: Int) {
        self.today = today
        self.scope = scope
        self.findingAssets = findingAssets
        due = DueList(today: today, reservingCapacity: rowBound)
        all = RowOrder(reservingCapacity: scope.locationTables ? rowBound : 0)
    }

    var electricalTotal: Int { electricalCounts.reduce(0, +) }

    mutating func add(_ row: RegisterRow) {
        let asset = row.asset, report = row.status(on: today), rank = report.status.attentionRank
        let key = ReportKey(tag: asset.tag, uuid: asset.uuid, place: Int32(clamping: total))
        total += 1
        counts[rank] += 1
        if asset.isElectrical { electricalCounts[rank] += 1 }
        if let week = DueForecast.week(of: report, today: today, count: weeks.count) { weeks[week] += 1 }
        let item = due.add(row, report: report)
        if findingAssets.contains(asset.uuid) {
            findingRows[asset.uuid] = FindingAsset(asset, status: report.status, listedReasons: item?.report.reasons)
        }
        if asset.intervalExceedsLOLER { overlong.append(key) }
        if !scope.allParticulars, ReportDocument.defectStatuses.contains(report.status) { defects.append(key) }
        if asset.isElectrical, report.status == .doNotUse { electricalOutOfUse.append(key) }
        if scope.locationTables {
            var located = key
            located.location = locationNumber(asset.location.trimmingCharacters(in: .whitespacesAndNewlines))
            locationSizes[Int(located.location)] += 1
            all.append(located)
        }
    }

    private mutating func locationNumber(_ name: String) -> Int32 {
        if let number = locationNumbers[name] { return number }
        let number = Int32(locationNames.count)
        locationNumbers[name] = number
        locationNames.append(name)
        locationSizes.append(0)
        return number
    }

    /// Each location number's place among the locations: case-insensitive order, the empty location last.
    func locationRanks() -> [Int] {
        let order = locationNames.indices.sorted {
            let a = locationNames[$0], b = locationNames[$1]
            return (a.isEmpty ? 1 : 0, a.lowercased(), a) < (b.isEmpty ? 1 : 0, b.lowercased(), b)
        }
        var ranks = [Int](repeating: 0, count: order.count)
        for (rank, number) in order.enumerated() { ranks[number] = rank }
        return ranks
    }
}
