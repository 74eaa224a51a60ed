"""tf.compat.v1.SummaryMetadata: the message that says which TensorBoard plugin reads a summary (Keras's
TensorBoard callback builds one for its model summary and passes it to tf.summary.write)."""

from ..summary import records


class _PluginData:
    """SummaryMetadata.plugin_data: plugin_name and content."""

    def __init__(self):
        self.plugin_name, self.content = "", b""


class SummaryMetadata:
    """The fields TensorBoard's plugins read: plugin_data, display_name, summary_description."""

    def __init__(self, display_name="", summary_description=""):
        self.plugin_data = _PluginData()
        self.display_name, self.summary_description = display_name, summary_description

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The message's protobuf encoding."""
        out = records.summary_metadata(self.plugin_data.plugin_name, bytes(self.plugin_data.content or b""),
                                       self.summary_description)
        if self.display_name:
            out += records.field_bytes(2, self.display_name)
        return out
