import Foundation
import Testing
@testable import RigbookApp
@testable import RigbookUI
import RigbookCore
import RigbookStore
import RigbookTestSupport

/// The background sync's schedule and header words, on an injected clock: pure, no server.
@Suite struct BackgroundSyncTests {
    let today = CalendarDate(iso: "2026-11-30")!
    let failedAt = SyncOutcome.failed(reason: "the server cannot be reached", day: CalendarDate(iso: "2026-11-30")!,
                                      clock: "09:12")

    func isSync(_ effects: [Effect]) -> Bool {
        effects.count == 1 && { if case .sync = effects[0] { true } else { false } }()
    }

    @Test func withoutAServerNothingSyncsAndTheHeaderSaysNothing() {
        var sync = SyncState()
        #expect(sync.follow(.saved(assetUUID: UUID(), sessionID: "s"), now: 10).isEmpty)
        #expect(sync.follow(.tick, now: 10_000).isEmpty)
        #expect(sync.header(now: 10, today: today) == nil)
    }

    @Test func syncsAtStartThenEveryIntervalAfterTheLastEnded() {
        var sync = SyncState()
        #expect(isSync(sync.follow(.syncEnabled(intervalSeconds: 120), now: 10)))
        #expect(sync.header(now: 10, today: today) == "syncing…")
        #expect(sync.follow(.tick, now: 500).isEmpty, "one at a time")
        #expect(sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 12).isEmpty)
        #expect(sync.nextAt == 132)
        #expect(sync.follow(.tick, now: 131).isEmpty)
        #expect(isSync(sync.follow(.tick, now: 132)))
        #expect(sync.nextAt == nil)
    }

    @Test func eachSaveSyncsAndASaveDuringASyncSyncsAgainWhenItEnds() {
        var sync = SyncState()
        _ = sync.follow(.syncEnabled(intervalSeconds: 180), now: 0)
        _ = sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 1)
        for save: Event in [.saved(assetUUID: UUID(), sessionID: "s"), .batchSaved(visit: UUID(), assetUUIDs: []),
                            .assetChanged(assetUUID: UUID(), sessionID: "e", summary: "x"),
                            .assetAdded(tag: "SL-1")] {
            #expect(isSync(sync.follow(save, now: 5)), "\(save)")
            #expect(sync.follow(.saved(assetUUID: UUID(), sessionID: "t"), now: 6).isEmpty)
            #expect(sync.wantedAgain)
            #expect(isSync(sync.follow(.syncFinished(.synced(received: 1, sent: 1, conflicts: [])), now: 7)))
            _ = sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 8)
        }
        #expect(sync.follow(.key(.char("j")), now: 9).isEmpty, "a key is not a save")
    }

    @Test func offlineSinceTheFirstFailureUntilASyncSucceeds() {
        var sync = SyncState()
        _ = sync.follow(.syncEnabled(intervalSeconds: 60), now: 0)
        _ = sync.follow(.syncFinished(failedAt), now: 1)
        #expect(sync.header(now: 1, today: today) == "offline since 09:12")
        #expect(sync.offlineReason == "the server cannot be reached")
        #expect(isSync(sync.follow(.tick, now: 61)), "offline, it keeps trying")
        _ = sync.follow(.syncFinished(.failed(reason: "refused", day: today, clock: "09:13")), now: 62)
        #expect(sync.header(now: 62, today: today) == "offline since 09:12", "since the first failure")
        #expect(sync.offlineReason == "refused", "the newest reason")
        #expect(sync.header(now: 62, today: CalendarDate(iso: "2026-12-01")!) == "offline since 2026-11-30",
                "another day: the date")
        _ = sync.follow(.tick, now: 122)
        _ = sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 123)
        #expect(sync.header(now: 123, today: today) == "synced just now")
        #expect(sync.offlineReason == nil)
    }

    @Test(arguments: [(0.0, "synced just now"), (59, "synced just now"), (60, "synced 1 min ago"),
                      (150, "synced 2 min ago"), (3 * 3600 + 5, "synced 3 h ago"), (2 * 86_400, "synced 2 days ago")]
          as [(Double, String)])
    func syncedAgoReadsAsAPersonWouldSayIt(_ after: Double, _ expected: String) {
        var sync = SyncState()
        _ = sync.follow(.syncEnabled(intervalSeconds: 1_000_000), now: 100)
        _ = sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 100)
        #expect(sync.header(now: 100 + after, today: today) == expected)
    }

    @Test func theClockIsTheLocalTimeOfDay() {
        // 2026-11-30T23:12:00Z
        let date = Date(timeIntervalSince1970: 1_796_080_320)
        let utc = SyncState.clock(date, timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.clock == "23:12" && utc.day.iso == "2026-11-30")
        let sydney = SyncState.clock(date, timeZone: TimeZone(identifier: "Australia/Sydney")!)
        #expect(sydney.clock == "10:12" && sydney.day.iso == "2026-12-01")
    }

    @Test func aConflictIsALineAtTheBottomNeverAnError() {
        #expect(SyncState.notice(for: .syncFinished(failedAt), before: .unknown) == nil)
        #expect(SyncState.notice(for: .syncFinished(.synced(received: 3, sent: 0, conflicts: [])),
                                 before: .unknown) == nil)
        let notice = SyncState.notice(for: .syncFinished(.synced(received: 1, sent: 0, conflicts: ["a", "b"])),
                                      before: .unknown)
        #expect(notice == .info("Sync: a (and 1 more)"))
    }

    @Test func aRefusalSomeoneMustPutRightSaysSoInTheHeaderAndOnceAtTheBottom() {
        let refused = SyncOutcome.needsAction(problem: "wrong password", reason: "put the right one in ~/.pgpass")
        var sync = SyncState()
        _ = sync.follow(.syncEnabled(intervalSeconds: 60), now: 0)
        _ = sync.follow(.syncFinished(failedAt), now: 1)
        let before = sync.status
        #expect(isSync(sync.follow(.tick, now: 61)))
        _ = sync.follow(.syncFinished(refused), now: 62)
        #expect(sync.header(now: 62, today: today) == "sync needs you: wrong password", "not \"offline\"")
        #expect(SyncState.notice(for: .syncFinished(refused), before: before)
                == .error("Sync needs you: put the right one in ~/.pgpass"))
        #expect(SyncState.notice(for: .syncFinished(refused), before: sync.status) == nil,
                "the same refusal again is not said again")
        #expect(isSync(sync.follow(.tick, now: 122)), "it keeps trying: someone may put it right meanwhile")
        _ = sync.follow(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])), now: 123)
        #expect(sync.header(now: 123, today: today) == "synced just now")
    }

    @Test func theHeaderShowsTheStateBesideTheCountsAt80Columns() throws {
        let harness = try Harness(.sample(count: 30))
        #expect(!harness.screen[0].contains("sync"), "no server: nothing said")
        harness.session.send(.syncEnabled(intervalSeconds: 180))
        harness.checkScreen()
        #expect(harness.screen[0].contains("syncing…  2026-11-30"))
        harness.session.send(.syncFinished(failedAt))
        harness.checkScreen()
        #expect(harness.screen[0].contains("offline since 09:12  2026-11-30"), "\(harness.screen[0])")
        #expect(harness.screen[0].hasPrefix(" Rigbook  30 assets"))
        #expect(!harness.screen.joined().contains("cannot be reached"), "a failure is never an error box")
        harness.advance(180)
        harness.session.send(.syncFinished(.synced(received: 0, sent: 0, conflicts: [])))
        harness.advance(150)
        #expect(harness.screen[0].contains("synced 2 min ago  2026-11-30"), "\(harness.screen[0])")
        // Narrow: the date goes first, then the sync's words; the counts stay.
        harness.resize(width: 40, height: 24)
        #expect(harness.screen[0].hasPrefix(" Rigbook  30 assets") && harness.screen[0].contains("synced 2 min ago"))
        #expect(!harness.screen[0].contains("2026-11-30"))
        harness.resize(width: 30, height: 24)
        #expect(harness.screen[0].hasPrefix(" Rigbook  30 assets") && !harness.screen[0].contains("synced"))
    }

    @Test func aRefusalShowsInTheHeaderAndSaysWhatToDoAt80Columns() throws {
        let harness = try Harness(.sample(count: 30))
        harness.session.send(.syncEnabled(intervalSeconds: 180))
        harness.session.send(.syncFinished(.needsAction(problem: "no database",
                                                        reason: "the server has no database \"rigbook\": make it")))
        harness.checkScreen()
        #expect(harness.screen[0].contains("sync needs you: no database  2026-11-30"), "\(harness.screen[0])")
        #expect(harness.screen.last?.contains("Sync needs you: the server has no database \"rigbook\": make it")
                == true, "\(harness.screen)")
    }
}

/// The worker against a real server: a refusal comes to the loop as one someone must put right.
@Suite struct BackgroundSyncWorkerTests {
    @Test func aWrongPasswordReachesTheListAsARefusalNotAsOffline() throws {
        let cluster = try ThrowawayPostgres.shared()
        let name = try cluster.createDatabaseNamed()
        let folder = NSTemporaryDirectory() + "/rigbook-worker-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register.open(path: DataHome(root: folder).registerPath)
        let worker = BackgroundSyncWorker(url: cluster.url(database: name, role: ThrowawayPostgres.passwordRole,
                                                           password: "wrong"),
                                          registerPath: register.path)
        worker.start()
        worker.waitUntilDone()
        guard case .needsAction(let problem, let reason)? = worker.take() else {
            Issue.record("a refusal, not a failure to reach the server")
            return
        }
        #expect(problem == "wrong password")
        #expect(reason.contains("~/.pgpass"), "\(reason)")
    }
}
