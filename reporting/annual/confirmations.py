"""What publishing and finishing the annual report do, for the confirmation box
of those binding steps (kernel.confirmations)."""

from kernel.confirmations import builder


@builder("annual_publish")
def _annual_publish(report) -> str:
    return (
        "Publishing puts these counts and charts on the public site as the draft "
        "for public comment, with the comment period given, and issues the "
        "draft's PDF; the counts of this version can no longer change."
    )


@builder("annual_finalize")
def _annual_finalize(report) -> str:
    return (
        "Making the report final closes the comment period and issues the final "
        "PDF with the summary of the comments received, for filing with the "
        "annual report to NYSDEC."
    )
