/// Whether the current call is already crossing the bridge between GirdersLog and swift-log, in either direction.
///
/// A record crosses at most once: ``SwiftLogDestination`` and ``GirdersLogHandler`` each drop what arrives while a
/// crossing is under way, so installing both (GirdersLog writing to swift-log, swift-log bootstrapped to write to
/// GirdersLog) cannot loop. A task-local value: it follows the call on its thread or task, and nothing else.
enum BridgeCrossing {
    @TaskLocal static var isCrossing = false
}
