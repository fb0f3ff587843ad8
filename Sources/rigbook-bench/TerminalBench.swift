import Foundation
import RigbookCore

enum TerminalBench {
    static func run(executable: String, today: CalendarDate) {}
}

enum LossBench {
    static func run(executable: String, today: CalendarDate) {}
}
