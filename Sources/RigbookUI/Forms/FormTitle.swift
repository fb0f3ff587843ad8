import RigbookCore

extension Frame {
    /// A form's title bar: `title` cut with "…" to leave room for `state` (the draft's, "changed") at the right.
    mutating func putTitleBar(_ title: String, state: (text: String, style: Style)?, in area: Rect) {
        fill(y: 0, in: area, style: .reverse)
        let room = area.width - (state?.text.displayWidth ?? 0)
        put(title.ellipsized(toWidth: max(0, room)), x: 0, y: 0, in: area, style: .reverse, maxWidth: room)
        if let state { put(state.text, x: area.width - state.text.displayWidth, y: 0, in: area, style: state.style) }
    }
}

/// A form's title for an asset: what and which tag (`lead`), its name, its type, and its WLL with the unit. In a
/// narrow title the name gives way first, then the type; the tag and the WLL are never cut (a WLL of `10` for
/// 10 t, or `1` for 1.5 t, would misstate the load).
enum FormTitle {
    static func text(lead: String, asset: Asset, width: Int) -> String {
        let tail = asset.isElectrical ? "" : " · WLL \(Asset.wllText(asset.wllKg))"
        let type = " · " + asset.typeLabel
        let room = width - lead.displayWidth - tail.displayWidth
        let whole = " · \(asset.name)\(type)"
        if whole.displayWidth <= room { return lead + whole + tail }
        let nameRoom = room - type.displayWidth - 3
        if nameRoom >= 2 { return lead + " · " + asset.name.ellipsized(toWidth: nameRoom) + type + tail }
        return lead + (room >= 5 ? " · " + "\(asset.name)\(type)".ellipsized(toWidth: room - 3) : "") + tail
    }
}
